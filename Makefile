# daydream-bridge: `make run` builds and starts the bridge, `make test` runs every test.
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
SWIFT_FLAGS ?=
# CI treats warnings as errors, and an import of a target that is not a declared
# dependency as an error too (it builds only by luck of the build order).
ifeq ($(CI),true)
SWIFT_FLAGS += -Xswiftc -warnings-as-errors --explicit-target-dependency-import-check error
endif

.PHONY: all deps test-deps build release run test unit
.PHONY: bench fuzz fuzz-build fuzz-ci sanitize sanitize-thread soak soak-ci
.PHONY: install uninstall check-install
.PHONY: deb dist check-deb package-binary
.PHONY: e2e

all: build

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

# Release builds link the Swift runtime statically: the installed daemon needs
# only Debian's libraries (not the toolchain's directory at run time), and maps
# no shared Swift libraries (about 2 MB less RSS). Every release build uses the
# same flags, so switching between them never rebuilds everything.
RELEASE_FLAGS ?= -c release --static-swift-stdlib

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS)

## Builds and runs the bridge with its built-in default profile (or your config).
run: release
	"$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/daydream-bridge" run

## The whole test suite.
# The unit tests are built and run under AddressSanitizer (leaks included), then ThreadSanitizer:
# no plain debug build of them, which would only repeat the first. Everything that runs the
# program (check-install, the soak, the package, the VM) runs the release build users install.
# Each stage's time is printed, to see where the budget goes. The end-to-end rig's set-up
# (QEMU, a kernel, Bumble's venv: downloads and unpacking, on a fresh machine minutes of them)
# runs beside the builds, and the e2e stage waits for it. The fuzzers are built beside
# check-install (its browsers leave a core idle), and the package check runs beside the fuzzers,
# which fuzz for a fixed time whatever else runs (each one's output is shown after the stage).
test:
	@start=$$(date +%s); \
	scripts/install-deps --test || exit 1; \
	echo "make test: installing what the tests need took $$(( $$(date +%s) - start )) s"; \
	early=""; \
	case " $(TEST_EXTRAS) " in *" e2e "*) \
		mkdir -p .build; Tests/e2e/setup.sh >.build/e2e-setup-early.out 2>&1 </dev/null & early=$$!;; \
	esac; \
	start=$$(date +%s); \
	scripts/sanitize address $(SWIFT_FLAGS) && \
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product daydream-bridge || exit 1; \
	fuzzers=""; \
	case " $(TEST_EXTRAS) " in *" fuzz-ci "*) \
		$(MAKE) --no-print-directory fuzz-build >.build/fuzz-build.out 2>&1 </dev/null & fuzzers=$$!;; \
	esac; \
	$(MAKE) --no-print-directory check-install BINARY="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/daydream-bridge" || exit 1; \
	echo "make test: unit tests (AddressSanitizer), release build and check-install took $$(( $$(date +%s) - start )) s"; \
	beside=""; \
	for extra in $(TEST_EXTRAS); do \
		start=$$(date +%s); \
		if [ "$$extra" = e2e ] && [ -n "$$early" ]; then \
			wait $$early || { cat .build/e2e-setup-early.out; echo "make test: the end-to-end rig's set-up failed" >&2; exit 1; }; \
		fi; \
		if [ "$$extra" = check-deb ] && [ -n "$$beside" ]; then continue; fi; \
		if [ "$$extra" = fuzz-ci ] && [ -n "$$fuzzers" ]; then \
			wait $$fuzzers || { cat .build/fuzz-build.out; echo "make test: building the fuzzers failed" >&2; exit 1; }; \
			cat .build/fuzz-build.out; \
		fi; \
		if [ "$$extra" = fuzz-ci ]; then case " $(TEST_EXTRAS) " in *" check-deb "*) \
			$(MAKE) --no-print-directory check-deb >.build/check-deb.out 2>&1 </dev/null & beside=$$!;; \
		esac; fi; \
		$(MAKE) --no-print-directory $$extra || exit 1; \
		if [ "$$extra" = fuzz-ci ] && [ -n "$$beside" ]; then \
			deb_status=0; wait $$beside || deb_status=$$?; cat .build/check-deb.out; \
			[ "$$deb_status" = 0 ] || { echo "make test: check-deb (beside fuzz-ci) failed" >&2; exit 1; }; \
			echo "make test: check-deb ran beside fuzz-ci"; \
		fi; \
		echo "make test: $$extra took $$(( $$(date +%s) - start )) s"; \
	done

unit: test

# --- Performance and robustness (Benchmarks/, Fuzz/, scripts/sanitize) ---
# `make test` also runs these and the end-to-end VM (under 30 minutes on the
# 2-core CI machine, the VM about 12 of them: doc/tests.md); `make test
# TEST_EXTRAS=` runs the unit tests (under AddressSanitizer) and check-install alone.
TEST_EXTRAS ?= sanitize-thread fuzz-ci soak-ci check-deb e2e
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= packet gear-vr oculus-go config dsu recording
FUZZ_DIR ?= .build/fuzz
# Fuzzers run side by side, each on a core of its own (each is one thread).
FUZZ_JOBS ?= $(shell nproc)
BENCH_FLAGS ?=
SOAK_SECONDS ?= 600

## Release build, then the figures table; also writes .build/bench.json. Never fails on timing.
## Counts instructions per packet with valgrind's callgrind (BENCH_FLAGS=--no-callgrind skips it).
bench:
	@scripts/install-deps --bench
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product daydream-bench
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product daydream-bridge
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product daydream-machine-floor
	"$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/daydream-bench" --json .build/bench.json $(BENCH_FLAGS)

## Each fuzzer built (FUZZ_TARGETS, FUZZ_JOBS at a time), not run; `fuzz` runs them.
# Each fuzzer is built by one single-threaded compiler per module: they are built side by side too.
fuzz-build: deps
	@printf '%s\n' $(FUZZ_TARGETS) | xargs -P $(FUZZ_JOBS) -I TARGET Fuzz/build-fuzzer TARGET $(FUZZ_DIR)

## Each fuzzer for FUZZ_SECONDS (libFuzzer + AddressSanitizer), FUZZ_JOBS at a time; fails on a finding.
fuzz: fuzz-build
	@printf '%s\n' $(FUZZ_TARGETS) | xargs -P $(FUZZ_JOBS) -I TARGET sh -c \
		'Fuzz/run-fuzzer TARGET $(FUZZ_SECONDS) $(FUZZ_DIR) >$(FUZZ_DIR)/TARGET.summary 2>&1; status=$$?; \
		cat $(FUZZ_DIR)/TARGET.summary; exit $$status'

## The fuzzers as CI runs them: the config and recording parsers for 30 s each, the
## packet decoders and the DSU requests for 10 s each.
# The file parsers still find new coverage at 30 s. The others stop early: in CI's 30 s runs
# the packet decoder's last new input came after 4.5 % of its inputs, DSU's after 1.3 %; the
# Gear VR and Oculus Go decoders had all their coverage after 19 % and 14 % on a loaded machine.
# CI's two cores run the six in 50 s this way, not 90.
FUZZ_CI_LONG ?= config recording
FUZZ_CI_SHORT ?= packet gear-vr oculus-go dsu
fuzz-ci:
	$(MAKE) fuzz FUZZ_SECONDS=30 FUZZ_TARGETS="$(FUZZ_CI_LONG)"
	$(MAKE) fuzz FUZZ_SECONDS=10 FUZZ_TARGETS="$(FUZZ_CI_SHORT)"

## The unit tests under AddressSanitizer, then ThreadSanitizer (.build/asan, .build/tsan).
sanitize: test-deps
	scripts/sanitize address $(SWIFT_FLAGS)
	scripts/sanitize thread $(SWIFT_FLAGS)

## The unit tests under ThreadSanitizer alone (`make test` runs AddressSanitizer's first).
sanitize-thread: test-deps
	scripts/sanitize thread $(SWIFT_FLAGS)

# --- Installation -------------------------------------------------------------
# `make release && sudo make install` (install builds nothing, so nothing in
# .build becomes root's). PREFIX and DESTDIR are honoured; every directory
# below can be set on the command line. BINARY installs another build.
BINARY ?= .build/release/daydream-bridge
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/daydream-bridge
SYSCONFDIR ?= /etc
# udev reads /etc/udev/rules.d and /usr/lib/udev/rules.d, never
# $(PREFIX)/lib/udev (systemd 252 has no /usr/local/lib/udev/rules.d), so a
# /usr/local install puts its rules in /etc.
ifeq ($(PREFIX),/usr)
UDEVRULESDIR ?= /usr/lib/udev/rules.d
else
UDEVRULESDIR ?= $(SYSCONFDIR)/udev/rules.d
endif
# dbus-daemon reads /usr/share/dbus-1/system.d and /etc/dbus-1/system.d,
# never /usr/local/share: a /usr/local install puts its policy in /etc.
ifeq ($(PREFIX),/usr)
DBUSSYSTEMDIR ?= /usr/share/dbus-1/system.d
else
DBUSSYSTEMDIR ?= $(SYSCONFDIR)/dbus-1/system.d
endif
GNOMEEXTENSIONDIR ?= $(PREFIX)/share/gnome-shell/extensions
# The editor page (`ui`): found beside the program, as BINDIR/../share/daydream-bridge/web.
WEBDIR ?= $(PREFIX)/share/daydream-bridge/web
# systemd reads $(PREFIX)/lib/... for both /usr and /usr/local.
MODULESLOADDIR ?= $(PREFIX)/lib/modules-load.d
SYSTEMDSYSTEMUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d

UDEV_RULES = udev/60-daydream-bridge-uinput.rules udev/65-daydream-bridge-devices.rules
SYSTEM_UNIT = systemd/daydream-bridge-system.service
USER_UNIT = systemd/daydream-bridge.service
FOCUS_UNIT = systemd/daydream-bridge-focus.service
GNOME_EXTENSION = desktop/gnome-shell/daydream-bridge@daydream-bridge
SYSUSERS = systemd/daydream-bridge.sysusers
MAN_PAGE = doc/daydream-bridge.1
EXAMPLE_CONFIGS = $(wildcard config/*.toml)
# A recording to try the editor page with: `daydream-bridge ui --replay FILE`.
EXAMPLE_RECORDINGS = Tests/Recordings/editor-tour.recording
WEB_FILES = $(wildcard web/*.html web/*.css web/*.js web/*.svg web/*.png)

## Installs the binary, udev rules, modules-load file, systemd units, the
## system unit's sysusers.d file and D-Bus policy, the example config and the man page under DESTDIR/PREFIX.
install:
	@test -x "$(BINARY)" || { echo "daydream-bridge: $(BINARY) is missing: run 'make release' first (as yourself), then 'sudo make install'" >&2; exit 1; }
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(UDEVRULESDIR)" "$(DESTDIR)$(MODULESLOADDIR)" \
		"$(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)" "$(DESTDIR)$(SYSTEMDUSERUNITDIR)" "$(DESTDIR)$(SYSUSERSDIR)" "$(DESTDIR)$(MANDIR)/man1" \
		"$(DESTDIR)$(SYSCONFDIR)/daydream-bridge" "$(DESTDIR)$(DOCDIR)/examples" "$(DESTDIR)$(DBUSSYSTEMDIR)" \
		"$(DESTDIR)$(GNOMEEXTENSIONDIR)/$(notdir $(GNOME_EXTENSION))" "$(DESTDIR)$(WEBDIR)"
	install -m 0755 "$(BINARY)" "$(DESTDIR)$(BINDIR)/daydream-bridge"
	install -m 0644 $(UDEV_RULES) "$(DESTDIR)$(UDEVRULESDIR)/"
	install -m 0644 udev/modules-load.d/daydream-bridge.conf "$(DESTDIR)$(MODULESLOADDIR)/daydream-bridge.conf"
	sed 's|/usr/bin/daydream-bridge|$(BINDIR)/daydream-bridge|' $(SYSTEM_UNIT) > "$(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/daydream-bridge-system.service"
	sed 's|/usr/bin/daydream-bridge|$(BINDIR)/daydream-bridge|' $(USER_UNIT) > "$(DESTDIR)$(SYSTEMDUSERUNITDIR)/daydream-bridge.service"
	sed 's|/usr/bin/daydream-bridge|$(BINDIR)/daydream-bridge|' $(FOCUS_UNIT) > "$(DESTDIR)$(SYSTEMDUSERUNITDIR)/daydream-bridge-focus.service"
	chmod 0644 "$(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/daydream-bridge-system.service" "$(DESTDIR)$(SYSTEMDUSERUNITDIR)/daydream-bridge.service" \
		"$(DESTDIR)$(SYSTEMDUSERUNITDIR)/daydream-bridge-focus.service"
	install -m 0644 $(GNOME_EXTENSION)/metadata.json $(GNOME_EXTENSION)/extension.js "$(DESTDIR)$(GNOMEEXTENSIONDIR)/$(notdir $(GNOME_EXTENSION))/"
	install -m 0644 $(WEB_FILES) "$(DESTDIR)$(WEBDIR)/"
	install -m 0644 $(SYSUSERS) "$(DESTDIR)$(SYSUSERSDIR)/daydream-bridge.conf"
	install -m 0644 dbus/org.daydream_bridge.conf "$(DESTDIR)$(DBUSSYSTEMDIR)/org.daydream_bridge.conf"
	install -m 0644 $(MAN_PAGE) "$(DESTDIR)$(MANDIR)/man1/daydream-bridge.1"
	install -m 0644 config/default.toml "$(DESTDIR)$(SYSCONFDIR)/daydream-bridge/config.toml.example"
	install -m 0644 $(EXAMPLE_CONFIGS) $(EXAMPLE_RECORDINGS) "$(DESTDIR)$(DOCDIR)/examples/"
	@if [ -z "$(DESTDIR)" ]; then \
		echo "Installed. Then: sudo modprobe uinput; sudo udevadm control --reload; sudo udevadm trigger --name-match=uinput;"; \
		echo "then 'systemctl --user daemon-reload && systemctl --user enable --now daydream-bridge';"; \
		echo "or, for the system unit: sudo systemd-sysusers; sudo systemctl reload dbus; sudo systemctl daemon-reload; sudo systemctl enable --now daydream-bridge-system."; \
	fi

## Removes what `make install` installed (same variables).
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/daydream-bridge" \
		$(addprefix "$(DESTDIR)$(UDEVRULESDIR)/,$(addsuffix ",$(notdir $(UDEV_RULES)))) \
		"$(DESTDIR)$(MODULESLOADDIR)/daydream-bridge.conf" \
		"$(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/daydream-bridge-system.service" \
		"$(DESTDIR)$(SYSTEMDUSERUNITDIR)/daydream-bridge.service" \
		"$(DESTDIR)$(SYSTEMDUSERUNITDIR)/daydream-bridge-focus.service" \
		"$(DESTDIR)$(GNOMEEXTENSIONDIR)/$(notdir $(GNOME_EXTENSION))/metadata.json" \
		"$(DESTDIR)$(GNOMEEXTENSIONDIR)/$(notdir $(GNOME_EXTENSION))/extension.js" \
		"$(DESTDIR)$(SYSUSERSDIR)/daydream-bridge.conf" \
		"$(DESTDIR)$(DBUSSYSTEMDIR)/org.daydream_bridge.conf" \
		"$(DESTDIR)$(MANDIR)/man1/daydream-bridge.1" \
		"$(DESTDIR)$(SYSCONFDIR)/daydream-bridge/config.toml.example" \
		$(addprefix "$(DESTDIR)$(DOCDIR)/examples/,$(addsuffix ",$(notdir $(EXAMPLE_CONFIGS) $(EXAMPLE_RECORDINGS)))) \
		$(addprefix "$(DESTDIR)$(WEBDIR)/,$(addsuffix ",$(notdir $(WEB_FILES))))
	rmdir "$(DESTDIR)$(WEBDIR)" "$(DESTDIR)$(PREFIX)/share/daydream-bridge" 2>/dev/null || true
	rmdir "$(DESTDIR)$(GNOMEEXTENSIONDIR)/$(notdir $(GNOME_EXTENSION))" "$(DESTDIR)$(DOCDIR)/examples" "$(DESTDIR)$(DOCDIR)" "$(DESTDIR)$(SYSCONFDIR)/daydream-bridge" 2>/dev/null || true

## `make install` and `make uninstall` into a temporary DESTDIR, checked file by file.
check-install:
	@scripts/check-install "$(BINARY)"

# --- Packages -----------------------------------------------------------------
# The .deb and the release tarball hold what `make install DESTDIR=...
# PREFIX=/usr` installs (Debian 12's paths), the binary stripped; both package
# the release build (built here when needed), or BINARY=. The version is the
# one `daydream-bridge --version` prints (scripts/version reads it).
VERSION = $(shell scripts/version)
DEB_ARCH ?= $(shell dpkg --print-architecture)
DEB = .build/deb/daydream-bridge_$(VERSION)_$(DEB_ARCH).deb
DIST = .build/dist/daydream-bridge-$(VERSION)-linux-$(DEB_ARCH).tar.gz

# The release build, unless BINARY= names another build.
package-binary:
ifeq ($(origin BINARY),file)
	@scripts/install-deps
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product daydream-bridge
endif

## The Debian package: .build/deb/daydream-bridge_VERSION_ARCH.deb (dpkg-deb; prints its path).
deb: package-binary
	@scripts/install-deps --deb
	@scripts/build-deb "$(BINARY)" .build/deb $(DEB_ARCH)

## The release tarball of the same files: .build/dist/daydream-bridge-VERSION-linux-ARCH.tar.gz.
dist: package-binary
	@scripts/install-deps --deb
	@scripts/build-dist "$(BINARY)" .build/dist $(DEB_ARCH)

## Both checked: lintian, then (as root) dpkg -i, the installed bridge run, dpkg -r and -P leaving nothing.
check-deb: deb dist
	@scripts/install-deps --test
	@scripts/check-deb "$(DEB)" "$(DIST)"

# --- End to end -----------------------------------------------------------------
## End to end in a VM: Debian's kernel under QEMU, real bluetoothd and uinput,
## an emulated Daydream controller (Tests/e2e/). About 12 minutes; needs root
## for its Debian packages. Part of `make test`.
# The VM runs the release build of the bridge and the example (what users install), and the
# unit-test bundle as `make test` builds it (AddressSanitizer) for the real-uinput tests: all
# three side by side in E2E_BIN_DIR, as the rig expects them.
E2E_BIN_DIR = .build/e2e-bin
e2e: deps deb
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product daydream-example
	@release="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" && \
	tests="$$(scripts/sanitize address --build-only $(SWIFT_FLAGS))" && \
	rm -rf $(E2E_BIN_DIR) && mkdir -p $(E2E_BIN_DIR) && \
	ln -s "$$release/daydream-bridge" "$$release/daydream-example" "$$tests/daydream-bridgePackageTests.xctest" $(E2E_BIN_DIR)/
	@SWIFT="$(SWIFT)" SWIFT_FLAGS="$(SWIFT_FLAGS)" E2E_BIN="$(CURDIR)/$(E2E_BIN_DIR)" E2E_DEB="$(CURDIR)/$(DEB)" Tests/e2e/run.sh

## The daemon (the release build) with 4 emulated controllers at 100 Hz for SOAK_SECONDS (fake bluetoothd, private bus),
## one through StartNotify, while controllers reconnect, the config is rewritten (valid and invalid)
## and control-socket clients come and go: no packet lost, RSS growth <= 1 MB, no fd growth.
## See Benchmarks/daemon-load/soak_run.py.
soak: test-deps
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product daydream-bridge
	Benchmarks/daemon-load/daemon_load.py --bridge "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/daydream-bridge" \
		soak --seconds $(SOAK_SECONDS)

## The soak for 45 s, as CI runs it.
soak-ci:
	$(MAKE) soak SOAK_SECONDS=45
