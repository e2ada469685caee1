/* t_quirks.c: GE-HARDWARE.md §5 quirks and the §6 texture cache, as modelled. */
T(region1_translates_and_reverses)
T(region1_empty_region)
T(region1_sprite_threads)
T(tall_triangle_extra_pixels)
T(texture_cache_until_texflush)
T(self_texture_reads_before_draw)
T(imm_flags_override_state)
T(self_texture_blocks_load_lazily)
