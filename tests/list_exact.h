/* t_exact.c: getile exact, the runner of the PSP-recorded probe jobs. */
T(exact_empty_jobs_give_console_check_crcs)
T(exact_sprite_fill_and_diff)
T(exact_rejects_malformed_groups)
T(exact_psp_jobs_reach_floor)
