#!/bin/sh
# Runs inside the VM as root (virtme-ng over the host's root file system).
# Usage: boot.sh REPO OUT VENV BRIDGE_BIN_DIR [runner arguments...]
# Starts the emulator first (Python is slow under emulation), then dbus,
# udev (unless virtme-ng's init has started it: one daemon only) and the
# scenario runner (which owns bluetoothd and the bridge).
# Logs live in /run/e2e (the shared directory is slow) and are copied to
# OUT at the end.
set -u
repo=$1 out=$2 venv=$3 bin=$4
shift 4
logs=/run/e2e
mkdir -p "$logs"
say() { echo "guest: $(cut -d' ' -f1 /proc/uptime)s: $*"; }
say "booted ($(uname -r))"

copy_logs() {
    mkdir -p "$out/logs"
    # Regular files only (the shared file system refuses sockets).
    find "$logs" -type f -exec cp {} "$out/logs/" \; 2>/dev/null
}

fail() {
    say "FATAL: $*"
    echo "FATAL: $*" > "$out/guest-fatal.txt"
    copy_logs
    exit 1
}

modprobe uinput || fail "modprobe uinput"
modprobe hci_vhci || fail "modprobe hci_vhci"
[ -c /dev/uinput ] || fail "no /dev/uinput"
[ -c /dev/vhci ] || fail "no /dev/vhci"

# Writable state over the read-only shared root.
for dir in /var/lib/bluetooth /etc/bluetooth-e2e; do
    mkdir -p "$dir" 2>/dev/null
    mount -t tmpfs tmpfs "$dir" 2>/dev/null || true
done

# The emulator first: importing Bumble takes about 10 s here.
"$venv/bin/python3" -X faulthandler "$repo/Tests/e2e/emulator/daydream_emulator.py" \
    --control "$logs/emulator.sock" >"$logs/emulator.log" 2>&1 &
echo $! > "$logs/emulator.pid"

mkdir -p /run/dbus
rm -f /run/dbus/pid /run/dbus/system_bus_socket
dbus-daemon --system --fork --nopidfile || fail "dbus-daemon"

# The udev daemons running: systemd-udevd processes whose parent is not one
# (its workers have the same name).
udev_daemons() {
    for pid in $(pgrep -x systemd-udevd); do
        parent=$(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null)
        [ "$(cat "/proc/$parent/comm" 2>/dev/null)" = systemd-udevd ] || echo "$pid"
    done
}

# One udev daemon only. virtme-ng's init starts systemd-udevd when it finds
# one; a second would take /run/udev/control (so `udevadm control --reload`
# and `settle` reach only it) while the first goes on handling every uevent
# with the rules it loaded at boot, and both write /run/udev/data: a device
# then keeps whichever finished last, with or without rules installed since.
mkdir -p /run/udev
if udevadm control --ping >/dev/null 2>&1; then
    say "systemd-udevd already running (pid $(udev_daemons | tr '\n' ' '))"
else
    /lib/systemd/systemd-udevd --daemon >"$logs/udevd.log" 2>&1 || say "systemd-udevd did not start"
fi
[ "$(udev_daemons | wc -l)" -le 1 ] || fail "more than one udev daemon: $(udev_daemons | tr '\n' ' ')"

say "services up; running scenarios"
export PATH="$bin:$PATH"
export E2E_LOGS="$logs" E2E_REPO="$repo" E2E_OUT="$out" E2E_BIN="$bin"
"$venv/bin/python3" -X faulthandler "$repo/Tests/e2e/runner/main.py" "$@"
status=$?
say "runner exited with $status"

kill "$(cat "$logs/emulator.pid")" 2>/dev/null
copy_logs
echo "$status" > "$out/guest-status"
say "done"
exit "$status"
