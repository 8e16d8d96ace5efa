# daydream-bridge: the two commands the README gives are `make run` and `make test`.
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
SWIFT_FLAGS ?=
# CI treats warnings as errors.
ifeq ($(CI),true)
SWIFT_FLAGS += -Xswiftc -warnings-as-errors
endif

.PHONY: all deps test-deps build release run test unit
.PHONY: bench fuzz fuzz-ci sanitize soak soak-ci

all: build

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)

## Builds and runs the bridge with its built-in default profile (or your config).
run: release
	$(SWIFT) run -c release $(SWIFT_FLAGS) daydream-bridge run

## The whole test suite.
test: test-deps
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	$(SWIFT) test $(SWIFT_FLAGS) --skip-build
	@if [ -n "$(strip $(TEST_EXTRAS))" ]; then $(MAKE) $(TEST_EXTRAS); fi

unit: test

# --- Performance and robustness (Benchmarks/, Fuzz/, scripts/sanitize) ---
# `make test` also runs these (CI time on a 2-core machine: see Fuzz/README.md);
# `make test TEST_EXTRAS=` runs the unit tests alone.
TEST_EXTRAS ?= sanitize fuzz-ci
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= packet
FUZZ_DIR ?= .build/fuzz
BENCH_FLAGS ?=

## Release build, then the figures table; also writes .build/bench.json. Never fails on timing.
bench: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS) --product daydream-bench
	"$$($(SWIFT) build -c release --show-bin-path)/daydream-bench" --json .build/bench.json $(BENCH_FLAGS)

## Each fuzzer for FUZZ_SECONDS (libFuzzer + AddressSanitizer); fails on a finding.
fuzz: deps
	@for target in $(FUZZ_TARGETS); do \
		Fuzz/build-fuzzer $$target $(FUZZ_DIR) && Fuzz/run-fuzzer $$target $(FUZZ_SECONDS) $(FUZZ_DIR) || exit 1; \
	done

## Each fuzzer for 30 s, as CI runs them.
fuzz-ci:
	$(MAKE) fuzz FUZZ_SECONDS=30

## The unit tests under AddressSanitizer, then ThreadSanitizer (.build/asan, .build/tsan).
sanitize: test-deps
	scripts/sanitize address $(SWIFT_FLAGS)
	scripts/sanitize thread $(SWIFT_FLAGS)
