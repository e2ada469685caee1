/* t_psp.c: the ported pspautotests GPU programs and their libgu. */
T(psp_gu_start_and_state_words)
T(psp_gu_clear_words)
T(psp_suite_reaches_floor)
