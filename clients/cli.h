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

/* True when argv holds -h or --help. */
bool cli_wants_help(int argc, char **argv);
/* Parses a non-negative integer option value; prints an error and returns false when invalid. */
bool cli_parse_u64(const char *opt, const char *val, unsigned long long max, unsigned long long *out);

/* Online CPUs (at least 1, at most GT_MAX_THREADS): the default thread count. */
unsigned cli_cpu_count(void);

#endif
