# getile: build, test and demo targets. See README.md.
#
# Variants share one set of rules and differ in BUILD and SAN:
#   build/        optimised build (getile, the library, the test runner)
#   build/asan/   AddressSanitizer + UndefinedBehaviorSanitizer (what `make test` runs)
#   build/tsan/   ThreadSanitizer (`make tsan-test`)
CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
SAN     ?=
PKGS    := libuv msgpack libpng libzstd snappy libzip
# -ffp-contract=off everywhere: results must never depend on the compiler or the CPU.
CFLAGS_ALL = -std=c17 -Wall -Wextra -Wno-unused-parameter -ffp-contract=off -D_DEFAULT_SOURCE \
             -g $(OPT) $(SAN) -Ipipeline -Ibinning -Iproto -Itests $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL = $(SAN) $(LDFLAGS)
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm

LIB_SRC  := $(wildcard pipeline/*.c binning/*.c proto/*.c)
CLI_SRC  := $(wildcard clients/*.c)
SRV_SRC  := $(wildcard server/*.c)
TEST_SRC := $(filter-out tests/fuzz_%.c tests/bench_%.c tests/xcheck_%.c,$(wildcard tests/*.c))
# The ported pspautotests GPU programs (issue 22): in the test runner and in
# build/psp_suite (`make psp-suite`), whose main is tests/psp/main.c.
PSP_SRC  := $(filter-out tests/psp/main.c,$(wildcard tests/psp/*.c))
BENCH_SRC := $(wildcard tests/bench_*.c)
FUZZ_SRC := $(wildcard tests/fuzz_*.c)
HDRS     := $(wildcard pipeline/*.h binning/*.h proto/*.h tests/*.h tests/psp/*.h clients/*.h server/*.h)

LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  = $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
SRV_OBJ  = $(SRV_SRC:%.c=$(BUILD)/obj/%.o)
# The test runner also links the fuzzer's case generator (tests/t_fuzz_cmd.c)
# and the clients' connection code (the daemon tests dial with it).
PSP_OBJ  = $(PSP_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/obj/%.o) $(PSP_OBJ) $(BUILD)/obj/clients/fuzzgen.o $(BUILD)/obj/clients/netclient.o

DEPS_STAMP := build/.deps-ok
FUZZ_SECONDS ?= 20

.PHONY: all deps demo test test-plain tsan-test fuzz fuzz-determinism bench clean psp-suite

all: $(BUILD)/getile $(BUILD)/getiled $(BUILD)/test_runner

# Installs missing Debian packages (as root) or says what to run.
$(DEPS_STAMP): .ci/install-deps.sh
	@bash .ci/install-deps.sh
	@mkdir -p build && touch $@
deps: $(DEPS_STAMP)

$(BUILD)/obj/%.o: %.c $(HDRS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/libgetile.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/getile: $(CLI_OBJ) $(BUILD)/libgetile.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(CLI_OBJ) $(BUILD)/libgetile.a $(PKG_LIBS)

# The daemon (server/, issue 7).
$(BUILD)/getiled: $(SRV_OBJ) $(BUILD)/libgetile.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(SRV_OBJ) $(BUILD)/libgetile.a $(PKG_LIBS)

$(BUILD)/test_runner: $(TEST_OBJ) $(BUILD)/libgetile.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(TEST_OBJ) $(BUILD)/libgetile.a $(PKG_LIBS)

$(BUILD)/psp_suite: $(BUILD)/obj/tests/psp/main.o $(PSP_OBJ) $(BUILD)/libgetile.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(BUILD)/obj/tests/psp/main.o $(PSP_OBJ) $(BUILD)/libgetile.a $(PKG_LIBS)

# The pspautotests GPU suite against the PSP's recordings (issue 22);
# `make test` guards its count with tests/psp-floor.txt.
PSP_GPU_DIR ?= $(firstword $(wildcard ../shared/pspautotests-gpu ../../shared/pspautotests-gpu /work/shared/pspautotests-gpu))
psp-suite: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory $(BUILD)/psp_suite
	@mkdir -p $(BUILD)/psp-suite
	$(BUILD)/psp_suite '$(PSP_GPU_DIR)' --save-dir $(BUILD)/psp-suite

# The README's first command: set up, build, render the bundled sample.
demo: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory $(BUILD)/getile
	$(BUILD)/getile render tests/samples/sample.ppdmp -o $(BUILD)/sample.png

# The README's test command: the whole suite under ASan + UBSan.
test: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory BUILD=build/asan \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    build/asan/test_runner build/asan/getile build/asan/getiled
	@$(MAKE) --no-print-directory build/getile
	ASAN_OPTIONS=detect_leaks=1 GETILE_BIN=build/asan/getile GETILED_BIN=build/asan/getiled build/asan/test_runner

# The same suite, optimised and without sanitizers.
test-plain: $(BUILD)/test_runner $(BUILD)/getile $(BUILD)/getiled
	GETILE_BIN=$(BUILD)/getile GETILED_BIN=$(BUILD)/getiled $(BUILD)/test_runner

tsan-test: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory BUILD=build/tsan SAN="-fsanitize=thread" build/tsan/test_runner build/tsan/getile build/tsan/getiled
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" GETILE_BIN=build/tsan/getile GETILED_BIN=build/tsan/getiled build/tsan/test_runner

# libFuzzer targets, each run for FUZZ_SECONDS (CI: 60).
FUZZ_BIN = $(FUZZ_SRC:tests/%.c=build/fuzz/%)
FUZZ_CC = clang -std=c17 -g -O1 -ffp-contract=off -D_DEFAULT_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    -Ipipeline -Ibinning -Iproto -Itests $(PKG_CFLAGS)
build/fuzz/%: tests/%.c $(LIB_SRC) $(HDRS) | $(DEPS_STAMP)
	@mkdir -p build/fuzz
	$(FUZZ_CC) -o $@ $< $(LIB_SRC) $(PKG_LIBS)
# The daemon's request path (no sockets, no loop: server/request.c, render_job.c).
FUZZ_SRV_SRC := server/request.c server/render_job.c
build/fuzz/fuzz_server: tests/fuzz_server.c $(LIB_SRC) $(FUZZ_SRV_SRC) $(HDRS) | $(DEPS_STAMP)
	@mkdir -p build/fuzz
	$(FUZZ_CC) -o $@ $< $(LIB_SRC) $(FUZZ_SRV_SRC) $(PKG_LIBS)
fuzz: $(FUZZ_BIN)
	@set -e; for f in $(FUZZ_BIN); do \
	  n=$$(basename $$f); mkdir -p build/fuzz/corpus-$$n; \
	  cp -n tests/fuzz-seeds/$$n/* build/fuzz/corpus-$$n/ 2>/dev/null || true; \
	  echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
	      build/fuzz/corpus-$$n 2>build/fuzz/$$n.log || { tail -40 build/fuzz/$$n.log; exit 1; }; \
	  grep -E "stat::number_of_executed_units|Done" build/fuzz/$$n.log | tail -2; \
	done

# The determinism fuzzer (`getile fuzz`): random cases and the shared dumps,
# every thread count and tile size against one thread, for FUZZ_DET_SECONDS.
FUZZ_DET_SECONDS ?= 120
# The shared dumps beside the repository, or where this workplace keeps them.
FUZZ_DET_DUMPS   ?= $(firstword $(wildcard ../shared/frametests/dumps ../../shared/frametests/dumps /work/shared/frametests/dumps))
fuzz-determinism: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory build/getile
	build/getile fuzz --seconds $(FUZZ_DET_SECONDS) --seed 1 $(if $(wildcard $(FUZZ_DET_DUMPS)),--dumps '$(FUZZ_DET_DUMPS)')

# Benchmarks (never timed assertions): each tests/bench_*.c is one program.
BENCH_BIN = $(BENCH_SRC:tests/%.c=$(BUILD)/%)
$(BUILD)/bench_%: tests/bench_%.c tests/bench.h $(BUILD)/libgetile.a
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $< $(filter %.o,$^) $(BUILD)/libgetile.a $(PKG_LIBS)
# bench_server dials the daemon with the clients' connection code.
$(BUILD)/bench_server: $(BUILD)/obj/clients/netclient.o
bench: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory $(BENCH_BIN) $(BUILD)/getile
	@set -e; for b in $(BENCH_BIN); do echo "== $$b"; $$b $(FUZZ_DET_DUMPS); done

clean:
	rm -rf build/obj build/asan build/tsan build/fuzz build/getile build/getiled build/test_runner build/libgetile.a

# The daemon's benchmark (tests/bench_server.c): throughput and p50/p99
# latency at 1, 4 and 16 clients beside the in-process time, over the shared
# dumps. A benchmark, never a timed test. GETILE_BENCH_RUNS, GETILE_BENCH_DUMPS.
.PHONY: bench-server
bench-server: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory $(BUILD)/bench_server $(BUILD)/getiled
	GETILE_BENCH_SERVER=1 GETILED_BIN=$(BUILD)/getiled $(BUILD)/bench_server $(FUZZ_DET_DUMPS)

# The PPSSPP-emulation diagnostic build (pipeline/compat.h), never the
# product: build/compat/getile can replace single GE-HARDWARE.md rules by
# what PPSSPP's software renderer does (GETILE_PPSSPP_COMPAT). `make
# compat-table` prints, per shared dump, the MSE against its reference for
# the normal build, with every switch, and with every switch but one: the
# evidence table of docs/KNOWN_DIFFERENCES.md.
COMPAT_LIB_SRC := $(filter-out pipeline/gemath.c,$(LIB_SRC)) pipeline/compat/compat_gemath.c
.PHONY: compat compat-table
compat: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory BUILD=build/compat CFLAGS='$(CFLAGS) -DGT_PPSSPP_COMPAT' \
	    LIB_SRC='$(COMPAT_LIB_SRC)' build/compat/getile
build/compat/obj/pipeline/compat/compat_gemath.o: pipeline/gemath.c
compat-table: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory build/getile compat
	@bash tests/compat_table.sh build/getile build/compat/getile '$(FUZZ_DET_DUMPS)' '$(FUZZ_DET_DUMPS)/../ref'

# `make rule-chain CHAIN="c1 c2 ..."` builds each commit and prints per dump
# the MSE against PPSSPP's reference and the pixels each commit changed (the
# per-rule trace of docs/KNOWN_DIFFERENCES.md); the default chain is the
# measured rules of issue 21, one commit each.
CHAIN ?= 28b33ab 9002f5f 6050a07 16853e8 a5cc271 5fb6bec bb4ef71 bc23e52 a9f96ca d515b45 82f1328 5830651 5c98e37 524ecad 3f972b0 HEAD
.PHONY: rule-chain
rule-chain:
	@bash tests/rule_chain.sh '$(FUZZ_DET_DUMPS)' '$(FUZZ_DET_DUMPS)/../ref' $(CHAIN)

# `make rule-reverts` splits commit 9002f5f's measured rules apart on the
# game dumps: each rule put back alone through tests/rule_reverts.patch
# (applied to a scratch copy of b5a1c1f), with the pixels it changes.
.PHONY: rule-reverts
rule-reverts:
	@bash tests/rule_reverts.sh '$(FUZZ_DET_DUMPS)' '$(FUZZ_DET_DUMPS)/../ref'
