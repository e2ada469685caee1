/* t_probe_mirror.c: §6 depth buffer read through the VRAM views and mirrors,
 * §5 REGION1 with an odd x offset: depth position and dither position. */
T(probe_mirror_depth_through_views)
T(probe_mirror_region1_depth_dither)
