/* Hostile inputs and the command line (tests/t_dump_bad.c, tests/t_cli.c). */
