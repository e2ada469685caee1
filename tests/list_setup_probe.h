/* Triangle setup of GE-HARDWARE.md §2: anchor, exact planes, fog, perspective (tests/t_setup_probe.c). */
T(setup_anchor_rule)
T(setup_color_depth_planes_exact)
T(setup_fog_plane)
T(setup_perspective_texcoords)
