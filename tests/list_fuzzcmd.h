/* getile fuzz: the case generator and the command (tests/t_fuzz_cmd.c). */
T(fuzz_cmd_same_seed_same_case)
T(fuzz_cmd_runs_clean)
T(fuzz_cmd_help)
T(fuzz_cmd_usage_errors)
T(fuzz_cmd_saved_case_replays)
T(fuzz_cmd_live_self_texture_case)
