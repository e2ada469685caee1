/* The options that the network subcommands (submit, probe, batch) share. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ge_limits.h"

int cli_net_option(int argc, char **argv, int *i, struct cli_net_opts *o, const char *prog)
{
    const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    const char **slot = !strcmp(a, "--server")                           ? &o->server
                        : !strcmp(a, "-o") || !strcmp(a, "--output")     ? &o->output
                        : !strcmp(a, "--token-file")                     ? &o->token_file
                                                                         : NULL;
    if (slot) {
        if (!v) {
            fprintf(stderr, "%s: %s needs a value\n", prog, a);
            return -1;
        }
        *slot = v;
    } else if (!strcmp(a, "--threads")) {
        if (!cli_parse_u64(a, v, GT_MAX_THREADS, &o->threads)) return -1;
    } else {
        return 0;
    }
    ++*i;
    return 1;
}
