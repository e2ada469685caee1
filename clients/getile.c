/* getile: render PSP GE frame dumps exactly as the console does.
 * Dispatches to the subcommands in clients/cmd_*.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "cli.h"
#include "ge_limits.h"

static const char usage[] =
    "usage: getile COMMAND [ARGS]\n"
    "\n"
    "Commands:\n"
    "  render DUMP -o OUT.png   replay a frame dump (.ppdmp or .zip) and write the display as PNG\n"
    "  compare A.png B.png      MSE and differing pixels of two images (PPSSPP's frame-test metric)\n"
    "  info DUMP                describe a frame dump's header and records\n"
    "  fuzz                     check that every thread count and tile size renders the same\n"
    "  submit --server ADDR DUMP...  render dumps on a getiled server and write their PNGs\n"
    "  batch --server ADDR[,...] DIR -o OUTDIR  render a directory of dumps on servers,\n"
    "                           resumably, optionally comparing with references\n"
    "  probe --server ADDR FILE -o OUT.png  render a raw display list described in FILE\n"
    "  exact DIR                run the PSP-recorded GE probe jobs in DIR, compare with the console\n"
    "\n"
    "Run `getile COMMAND --help` for a command's options.\n";

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return true;
    return false;
}

bool cli_parse_u64(const char *opt, const char *val, unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!val || !*val || *val == '-') goto bad;
    unsigned long long v = strtoull(val, &end, 10);
    if (errno || *end || v > max) goto bad;
    *out = v;
    return true;
bad:
    fprintf(stderr, "getile: %s needs a whole number from 0 to %llu, got '%s'\n", opt, max, val ? val : "");
    return false;
}

unsigned cli_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1;
    return n > GT_MAX_THREADS ? GT_MAX_THREADS : (unsigned)n;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "render")) return cmd_render(argc - 1, argv + 1);
    if (!strcmp(argv[1], "compare")) return cmd_compare(argc - 1, argv + 1);
    if (!strcmp(argv[1], "info")) return cmd_info(argc - 1, argv + 1);
    if (!strcmp(argv[1], "fuzz")) return cmd_fuzz(argc - 1, argv + 1);
    if (!strcmp(argv[1], "submit")) return cmd_submit(argc - 1, argv + 1);
    if (!strcmp(argv[1], "batch")) return cmd_batch(argc - 1, argv + 1);
    if (!strcmp(argv[1], "probe")) return cmd_probe(argc - 1, argv + 1);
    if (!strcmp(argv[1], "exact")) return cmd_exact(argc - 1, argv + 1);
    fprintf(stderr, "getile: unknown command '%s'\n\n%s", argv[1], usage);
    return 2;
}
