/* t_compat.c: the PPSSPP emulation switches of the diagnostic build (pipeline/compat.h). */
T(compat_switch_lists)
T(compat_off_in_normal_build)
T(compat_rect_detection)
T(compat_round_ties_to_even)
T(compat_rect_edges_second_of_quad)
T(compat_zero_area_modulate)
T(compat_bezier_grid_lines)
T(compat_force_alpha_test_conditions)
