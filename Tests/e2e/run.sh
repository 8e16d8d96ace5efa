#!/bin/sh
# make e2e: the end-to-end rig. Builds the bridge on the host, checks the
# emulator on the host, then boots Debian's kernel once under QEMU
# (virtme-ng, software emulation) over the host's file system and runs every
# scenario there: real bluetoothd, real kernel Bluetooth and uinput, an
# emulated Daydream controller (Bumble).
#
# Environment: E2E_ONLY="bridge_mouse rig" runs the scenarios whose function
# names are given or whose titles contain one of the words;
# E2E_REPEAT=N runs them N times over (hunting flakes);
# E2E_ALLOW_SKIP=1 lets scenarios the bridge can't run yet skip (development
# only: a full run fails on a skip); E2E_DEBUG=1 runs bluetoothd -d;
# E2E_TIMEOUT (s, default 1800) bounds the VM; E2E_BIN=DIR runs the
# daydream-bridge and daydream-example found there and builds nothing;
# E2E_DEB=FILE is the .deb the units scenario installs with dpkg -i (make e2e
# builds it; without it that scenario installs with make install).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out="$here/out"
SWIFT=${SWIFT:-swift}
started=$(date +%s)

loud() {
    echo "" >&2
    echo "################################################################" >&2
    echo "e2e: FAILED: $*" >&2
    echo "################################################################" >&2
    exit 1
}

# The set-up's status, not tail's: a failed install must stop the run here,
# not later as a missing module.
mkdir -p "$repo/.build"
"$here/setup.sh" > "$repo/.build/e2e-setup.out" || loud "the rig's set-up failed (Tests/e2e/setup.sh)"
venv=$(tail -n 1 "$repo/.build/e2e-setup.out")
[ -x "$venv/bin/python3" ] || loud "the rig's set-up named no usable venv ('$venv')"

if [ -n "${E2E_BIN:-}" ]; then
    bin=$(cd "$E2E_BIN" && pwd)
    echo "e2e: using the binaries in $bin (E2E_BIN; nothing built)"
else
    echo "e2e: building the bridge, the example and the tests on the host"
    (cd "$repo" && $SWIFT build ${SWIFT_FLAGS:-} --build-tests) || loud "swift build failed"
    bin=$(cd "$repo" && $SWIFT build ${SWIFT_FLAGS:-} --show-bin-path)
fi
[ -x "$bin/daydream-bridge" ] || loud "no daydream-bridge in $bin"

# The real clients' probes, built on the host against Debian's packages.
clients="$repo/.build/e2e-clients"
mkdir -p "$clients"
echo "e2e: building the SDL probe against $(pkg-config --modversion sdl2 2>/dev/null || echo '(no sdl2)') (libsdl2-dev)"
# shellcheck disable=SC2046
${CC:-cc} -std=gnu11 -O1 -Wall -Wextra -Werror -o "$clients/sdl_probe" "$here/clients/sdl_probe.c" \
    $(pkg-config --cflags --libs sdl2) || loud "the SDL probe (clients/sdl_probe.c) did not build"

echo "e2e: checking the emulator's packet encoder against 'daydream-bridge decode'"
"$venv/bin/python3" "$here/emulator/check_encoder.py" "$bin/daydream-bridge" || loud "the emulator's encoder disagrees with the bridge's decoder"
echo "e2e: checking the emulated Gear VR's encoder against 'daydream-bridge decode --controller gear-vr'"
"$venv/bin/python3" "$here/emulator/check_gear_vr_encoder.py" "$bin/daydream-bridge" || loud "the emulated Gear VR's encoder disagrees with the bridge's decoder"
"$venv/bin/python3" "$here/emulator/gear_vr_recording.py" "$here/timelines/gear-vr-tour.tl" | cmp -s - "$repo/Tests/Recordings/gear-vr.recording" \
    || loud "Tests/Recordings/gear-vr.recording is not what emulator/gear_vr_recording.py makes of timelines/gear-vr-tour.tl"
echo "e2e: emulator self-test on the host (Bumble central on the emulated link)"
"$venv/bin/python3" "$here/emulator/selftest.py" || loud "the emulator's self-test failed"
echo "e2e: the emulated Gear VR's self-test on the host (its GATT table, start order, echoes, idle, HOME)"
"$venv/bin/python3" "$here/emulator/gear_vr_selftest.py" || loud "the emulated Gear VR's self-test failed"

kernel=$(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
[ -n "$kernel" ] || loud "no kernel in /boot (linux-image-amd64)"
rm -rf "$out"
mkdir -p "$out/logs"

args=""
[ -n "${E2E_ALLOW_SKIP:-}" ] && args="$args --allow-skip"
for only in ${E2E_ONLY:-}; do args="$args --only $only"; done
[ -n "${E2E_REPEAT:-}" ] && args="$args --repeat $E2E_REPEAT"

# The host's browser for the page served in the VM (s49): Chromium is too slow under software
# emulation, so it runs here and reaches the guest's `ui` through a forward of a free port on
# the host's loopback (QEMU's user network, restricted: the guest reaches nothing else). It
# starts Chromium only when the guest asks, through files in $out/page.
page_port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') \
    || loud "no free port on the host's loopback for the page's forward"
mkdir -p "$out/page"
/usr/bin/python3 "$here/host/page_browser.py" --exchange "$out/page" --port "$page_port" --screenshots "$out/logs" \
    >"$out/logs/page_browser.log" 2>&1 </dev/null &
page_browser=$!
trap 'kill "$page_browser" 2>/dev/null' EXIT
trap 'exit 130' INT TERM

echo "e2e: booting $(basename "$kernel") under QEMU (software emulation; --disable-kvm)"
boot_started=$(date +%s)
status=0
# vng must not write straight into a file (QEMU reopens its stdout): pipe it.
PATH="$venv/bin:$PATH" timeout --kill-after=20 "${E2E_TIMEOUT:-1800}" \
    vng --disable-kvm --run "$kernel" --user root --memory 2G --cpus 2 \
        --rwdir="$out" \
        --qemu-opts="-netdev user,id=page,restrict=on,hostfwd=tcp:127.0.0.1:$page_port-:$page_port -device virtio-net-pci,netdev=page" -- \
        "E2E_DEBUG=${E2E_DEBUG:-} E2E_DEB=${E2E_DEB:-} E2E_PAGE_PORT=$page_port VIRTUAL_ENV=$venv sh $here/guest/boot.sh $repo $out $venv $bin $args" \
    </dev/null 2>&1 | cat || status=$?

ended=$(date +%s)
echo "e2e: the VM ran $((ended - boot_started)) s; whole run $((ended - started)) s; logs in $out/logs"
if [ ! -f "$out/guest-status" ]; then
    if [ -f "$out/guest-fatal.txt" ]; then
        loud "the guest could not set up: $(cat "$out/guest-fatal.txt")"
    fi
    loud "the VM did not start or did not finish (vng exit $status; see above). The end-to-end tests did not run."
fi
guest=$(cat "$out/guest-status")
[ "$guest" = "0" ] || loud "scenarios failed (guest status $guest); logs in $out/logs"
if [ -n "${E2E_ALLOW_SKIP:-}" ]; then echo "e2e: passed (skips allowed: see the SKIP lines)"; else echo "e2e: all scenarios passed"; fi
