/* The fuzzer's case generator across compilers (tests/t_fuzzgen_xcheck.c). */
T(fuzzgen_compilers_agree)
