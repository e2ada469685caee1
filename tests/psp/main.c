/* build/psp_suite (`make psp-suite`): runs the ported pspautotests GPU
 * programs against the PSP's recordings and reports per program. */
#include <stdio.h>
#include <string.h>

#include "psp/ports.h"

static const char usage[] =
    "usage: psp_suite DIR [--only SUBSTRING] [--save-dir D]\n"
    "\n"
    "Runs every ported pspautotests GPU program (tests/psp/) through getile and\n"
    "compares each line it prints with the line the PSP printed (DIR/DIR__NAME.expected,\n"
    "the layout of ../shared/pspautotests-gpu). Prints per program `N of M values\n"
    "match the PSP` (and for programs that take a screenshot `screenshot exact` or\n"
    "the differing pixels, RGB over 480x272), each differing line beside the PSP's,\n"
    "then the total. --save-dir D writes, for a screenshot that differs,\n"
    "D/DIR__NAME.getile.png beside D/DIR__NAME.psp.png.\n"
    "Exit status: 0 every value matches; 1 a value differs or a port failed; 2 usage.\n";

int main(int argc, char **argv)
{
    const char *dir = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--save-dir") && i + 1 < argc) {
            psp_suite_save_dir = argv[++i];
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (argv[i][0] != '-' && !dir) {
            dir = argv[i];
        } else {
            fprintf(stderr, "psp_suite: unknown argument '%s'\n%s", argv[i], usage);
            return 2;
        }
    }
    if (!dir) {
        fputs(usage, stderr);
        return 2;
    }
    struct psp_suite_result r;
    psp_suite_run(dir, only, stdout, &r);
    return r.matched == r.values && r.shots_exact == r.shots && !r.errors && r.programs ? 0 : 1;
}
