/* The getile command-line tool: one function per subcommand. Each returns
 * the process exit status (0 success, 1 failure or mismatch, 2 usage). */
#ifndef GETILE_CLI_H
#define GETILE_CLI_H

#include <stdbool.h>

int cmd_render(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_info(int argc, char **argv);
/* The determinism fuzzer (clients/cmd_fuzz.c). */
int cmd_fuzz(int argc, char **argv);
/* Renders dumps on a getiled server (clients/cmd_submit.c). */
int cmd_submit(int argc, char **argv);
/* Renders a directory of dumps on getiled servers (clients/cmd_batch.c). */
int cmd_batch(int argc, char **argv);
/* Renders a raw display list described in a text file on a server (clients/cmd_probe.c). */
int cmd_probe(int argc, char **argv);
/* Runs the PSP-recorded GE probe jobs and compares CRCs (clients/cmd_exact.c). */
int cmd_exact(int argc, char **argv);

/* True when argv holds -h or --help. */
bool cli_wants_help(int argc, char **argv);
/* Parses a non-negative integer option value; prints an error and returns false when invalid. */
bool cli_parse_u64(const char *opt, const char *val, unsigned long long max, unsigned long long *out);

/* The options of the network subcommands: --server ADDR, -o/--output X,
 * --threads N (0..GT_MAX_THREADS), --token-file F (clients/cli_opts.c). */
struct cli_net_opts {
    const char *server, *output, *token_file; /* NULL when not given */
    unsigned long long threads;               /* 0 when not given: the server's choice */
};
/* Takes argv[*i] when it is one of those options, with its value
 * argv[*i + 1]: returns 1 (*i is left on the value), 0 when argv[*i] is
 * not one of them, -1 on a usage error (a message prefixed by prog printed). */
int cli_net_option(int argc, char **argv, int *i, struct cli_net_opts *o, const char *prog);

/* Online CPUs (at least 1, at most GT_MAX_THREADS): the default thread count. */
unsigned cli_cpu_count(void);

#endif
