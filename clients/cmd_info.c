/* getile info: what a frame dump holds. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dump.h"

static const char usage[] =
    "usage: getile info DUMP\n"
    "\n"
    "Prints a frame dump's version, game ID, data size and its records by type.\n";

int cmd_info(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "getile info: needs one dump\n\n%s", usage);
        return 2;
    }
    struct gt_diag d = {0};
    struct dump dp;
    if (dump_load_file(argv[1], &dp, &d) < 0) {
        fprintf(stderr, "getile: %s: %s\n", argv[1], gt_diag_msg(&d));
        return 1;
    }
    unsigned long long count[256] = {0}, bytes[256] = {0};
    for (uint32_t i = 0; i < dp.nrec; i++) {
        count[dp.rec[i].type]++;
        bytes[dp.rec[i].type] += dp.rec[i].size;
    }
    printf("version %u, game ID '%s', %u records, %u data bytes\n", dp.version, dp.game_id, dp.nrec, dp.data_size);
    for (unsigned t = 0; t < 256; t++)
        if (count[t]) printf("  %-12s %8llu records %12llu bytes\n", dump_type_name(t), count[t], bytes[t]);
    dump_free(&dp);
    return 0;
}
