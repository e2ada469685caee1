/* getile batch and the Python client against real daemons (tests/t_batch.c). */
T(batch_renders_and_reports_bad_dump)
T(batch_resume_skips_existing)
T(batch_ref_compare_and_report)
T(batch_retry_when_server_killed)
T(batch_reconnects_to_restarted_server)
T(batch_help_and_usage_errors)
T(batch_python_example)
T(probe_renders_list)
