/* getile info: what a frame dump holds. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dump.h"

static const char usage[] =
    "usage: getile info [--records] DUMP\n"
    "\n"
    "Prints a frame dump's version, game ID, data size and its records by type.\n"
    "\n"
    "  --records   also list every record in order: index, type, size, and the\n"
    "              address words of DISPLAY, MEMSET, MEMCPYDEST, CLUTADDR and\n"
    "              FRAMEBUF records\n";

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* One line per record; the words a record carries are shown when the record
 * is an address record (sizes checked by the parser are re-checked here). */
static void list_records(const struct dump *dp)
{
    for (uint32_t i = 0; i < dp->nrec; i++) {
        const struct dump_record *r = &dp->rec[i];
        const char *name = dump_type_name(r->type);
        const uint8_t *p = dp->data + r->offset;
        printf("%6u %-12s %9u", i, name ? name : "?", r->size);
        if (name && r->size >= 12 &&
            (!strcmp(name, "DISPLAY") || !strcmp(name, "MEMSET") || !strncmp(name, "FRAMEBUF", 8)))
            printf("  0x%08x %u 0x%x", rd32(p), rd32(p + 4), rd32(p + 8));
        else if (name && r->size >= 4 && (!strcmp(name, "MEMCPYDEST") || !strcmp(name, "CLUTADDR")))
            printf("  0x%08x", rd32(p));
        printf("\n");
    }
}

int cmd_info(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    bool records = argc == 3 && !strcmp(argv[1], "--records");
    if (records) argv++, argc--;
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "getile info: needs one dump%s\n\n%s", argc == 2 ? " (unknown option)" : "", usage);
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
    if (records) list_records(&dp);
    dump_free(&dp);
    return 0;
}
