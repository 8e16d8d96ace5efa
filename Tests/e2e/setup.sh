#!/bin/sh
# Installs what the end-to-end rig needs, when any of it is missing:
# Debian packages (QEMU, Debian's kernel, BlueZ, udev, python3-dbus/evdev,
# and the real clients the scenarios drive: libsdl2-dev with a C compiler,
# libinput-tools, joystick's jstest; systemd-nspawn for the units scenario; Chromium,
# chromedriver and selenium for the host's browser on the VM's page) and a venv for Debian's /usr/bin/python3 with virtme-ng and bumble.
# Idempotent; quick when everything is present. Runs as root, or through sudo,
# with no stdin. Prints the venv's path on its last line.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv="${E2E_VENV:-$root/.build/e2e-venv}"

# Versions the rig was proven with. The emulator patches Bumble internals
# (see emulator/bumble_fixes.py), so a different Bumble must be tested first.
BUMBLE_VERSION=0.0.236
VIRTME_NG_VERSION=1.42
# Newer SDLs than Debian's, for s29_dualsense.py: pysdl2-dll's SDL 2.32 is built without
# udev (no hidraw HIDAPI backend; it reads the kernel's nodes), pygame-ce's SDL 2.32 with udev,
# as distributions build theirs.
PYSDL2_VERSION=0.9.17
PYSDL2_DLL_VERSION=2.32.10
PYGAME_CE_VERSION=2.5.8

packages="qemu-system-x86 linux-image-amd64 bluez udev kmod dbus-daemon
python3-venv python3-dbus python3-evdev python3-gi python3-pip evtest procps busybox-static
gcc pkg-config libsdl2-dev libinput-tools joystick systemd-container make
chromium chromium-driver python3-selenium"

missing=""
for package in $packages; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done

if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=""
    elif command -v sudo >/dev/null 2>&1; then
        sudo="sudo -n"
    else
        echo "e2e setup: these Debian packages are missing:$missing; install them as root." >&2
        exit 1
    fi
    echo "e2e setup: installing Debian packages:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq </dev/null >&2
    # shellcheck disable=SC2086
    $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing </dev/null >&2
fi

if ! ls /boot/vmlinuz-* >/dev/null 2>&1; then
    echo "e2e setup: no kernel under /boot after installing linux-image-amd64" >&2
    exit 1
fi

stamp="$venv/.e2e-versions"
want="bumble==$BUMBLE_VERSION virtme-ng==$VIRTME_NG_VERSION pysdl2==$PYSDL2_VERSION pysdl2-dll==$PYSDL2_DLL_VERSION pygame-ce==$PYGAME_CE_VERSION"
if [ ! -x "$venv/bin/python3" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "e2e setup: making the venv $venv ($want)" >&2
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    # Debian's interpreter, not whatever python3 is first on PATH: the guest
    # runs it, and it must see Debian's python3-dbus and python3-evdev.
    /usr/bin/python3 -m venv --system-site-packages "$venv"
    # shellcheck disable=SC2086
    "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check $want </dev/null >&2
    echo "$want" > "$stamp"
fi
echo "$venv"
