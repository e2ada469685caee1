/* Mip level selection and the texture-coordinate probes of GE-HARDWARE.md
 * §2 and §8, rendered end to end (tests/t_lod_probe.c). */
T(lod_span_second_pixel)
T(lod_auto_ratios)
T(lod_bias_const_max_linear)
T(lod_slope_mode)
T(lod_bilinear_ramp)
T(lod_never_merge_sprites)
