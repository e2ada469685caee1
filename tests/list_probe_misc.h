/* t_probe_misc.c: §5 tall triangles (left long edge), §6 texture cache and
 * self-texturing, the tile rule, line antialiasing and flat lines, 16-bit
 * stencil and destination alpha. */
T(probe_misc_tall_triangle_left_edge)
T(probe_misc_self_blur_cached)
T(probe_misc_texcache_8k_boundary)
T(probe_misc_tile_rule_direct)
T(probe_misc_aa_line_alpha)
T(probe_misc_flat_line_provoking)
T(probe_misc_stencil_16bit)
T(probe_misc_dst_alpha_16bit)
