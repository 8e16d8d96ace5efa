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

unit: test
