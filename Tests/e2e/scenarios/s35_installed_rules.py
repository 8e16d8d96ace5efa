"""The project's udev rules installed in the guest (udev/60-... and 65-...):
real systemd-udevd applies them to the real /dev/uinput and to the bridge's
devices, and the bridge then runs as an ordinary user, as on a headless box
with the system unit's group set-up."""
from __future__ import annotations

import grp
import os
import shutil
import stat
import subprocess
import time

from bridge_helpers import bridge_devices, check_classes, ensure_paired, play_and_read, wait_streaming
from input_devices import expect_frames, udev_properties_of
from processes import Process
from rig import scenario
from timeline_texts import TAP_CLICK
from udev_rules import DEVICE_RULES, RULES_DIR, UINPUT_RULES, group_variant, installed_rules, udevadm

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
NOBODY = 65534


def why_unmarked(device) -> str:
    """What udev itself says about a device the rules did not mark: its
    database entry, then the rules run on it again by `udevadm test` (which
    files it read, what they did)."""
    syspath = os.path.realpath(f"/sys/class/input/{os.path.basename(device.path)}")
    # Read first: `udevadm test` (systemd 252) writes the database entry it computes.
    entry = device.udev_properties()
    test = subprocess.run(["udevadm", "test", "--action=add", syspath], capture_output=True, text=True, timeout=60)
    lines = [line for line in (test.stdout + test.stderr).splitlines()
             if "rules" in line or "DAYDREAM" in line or "ID_INPUT" in line]
    return (f"rules files: {sorted(os.listdir(RULES_DIR))}\n"
            f"udev's entry: {entry}\n"
            f"udevadm test --action=add {syspath} (rules lines):\n  " + "\n  ".join(lines[-40:]))


def user_bridge(rig, home: str) -> Process:
    """`daydream-bridge run -v` as uid/gid 65534 with the input group only:
    its own copy of the binary (the repository may sit under a private
    home), its own runtime and config directories."""
    if os.path.exists(home):
        shutil.rmtree(home)
    for sub in ("bin", "runtime", "config"):
        os.makedirs(os.path.join(home, sub))
    binary = os.path.join(home, "bin", "daydream-bridge")
    shutil.copy(rig.bridge_path, binary)
    for root, directories, files in os.walk(home):
        for name in directories + files + [""]:
            os.chown(os.path.join(root, name), NOBODY, NOBODY)
    os.chmod(home, 0o755)
    os.chmod(os.path.join(home, "runtime"), 0o700)
    env = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=os.path.join(home, "runtime"),
               XDG_CONFIG_HOME=os.path.join(home, "config"))
    argv = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", f"--groups={grp.getgrnam('input').gr_gid}",
            "--inh-caps=-all", "--bounding-set=-all", binary, "run", "-v"]
    process = Process("bridge-user", argv, rig.logs, env=env)
    rig.processes.append(process)
    return process


def wait_running(process: Process, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        log = process.log_text()  # this run's lines: bridge-user.log is appended to on a repeat
        assert process.alive(), f"daydream-bridge as an ordinary user exited:\n{log[-2000:]}"
        if "running with" in log:
            return
        assert time.monotonic() < deadline, f"daydream-bridge as an ordinary user never ran:\n{log[-2000:]}"
        time.sleep(0.2)


@scenario("udev: the shipped rules in real udev; the bridge as an ordinary user (input group)",
          needs=("run",), udev=True)
def udev_installed_rules(rig):
    """60-: /dev/uinput tagged uaccess (seat user) and, in the headless copy, group
    input mode 0660. 65-: matches the bridge's three devices. Then the bridge
    runs as uid 65534 with only the input group: devices, classes and events."""
    with open(os.path.join(rig.repo, "udev", UINPUT_RULES), encoding="utf-8") as file:
        uinput_rules = file.read()
    with open(os.path.join(rig.repo, "udev", DEVICE_RULES), encoding="utf-8") as file:
        device_rules = file.read()
    ensure_paired(rig, NAME, ADDRESS)
    with installed_rules({UINPUT_RULES: group_variant(uinput_rules), DEVICE_RULES: device_rules}):
        udevadm("trigger", "--action=change", "--sysname-match=uinput")
        udevadm("settle", "--timeout=30")
        info = udevadm("info", "--query=property", "--name=/dev/uinput")
        tags = next((line.split("=", 1)[1] for line in info.splitlines() if line.startswith("TAGS=")), "")
        assert ":uaccess:" in tags, f"/dev/uinput is not tagged uaccess: {info}"
        node = os.stat("/dev/uinput")
        assert node.st_gid == grp.getgrnam("input").gr_gid and stat.S_IMODE(node.st_mode) == 0o660, \
            f"/dev/uinput is gid {node.st_gid} mode {oct(stat.S_IMODE(node.st_mode))}, not input 0660"

        mark = rig.emulator.mark()
        bridge = user_bridge(rig, "/tmp/e2e-user")
        wait_running(bridge)
        wait_streaming(rig, NAME, since=mark)
        pad, mouse, keyboard = bridge_devices(rig)
        try:
            entries = udev_properties_of([pad, mouse, keyboard])
            check_classes(*entries)
            # 65-: real udev matched each device by its ids under /devices/virtual.
            for device, kind, properties in zip((pad, mouse, keyboard), ("gamepad", "mouse", "keyboard"), entries):
                marked = properties.get("DAYDREAM_BRIDGE_DEVICE")
                assert marked == kind, \
                    f"{DEVICE_RULES} did not mark the {kind} ({device.path}): {marked!r}\n{why_unmarked(device)}"
            _, frames = play_and_read(rig, NAME, TAP_CLICK, [pad])
            expect_frames(frames[pad], [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]], "bridge as uid 65534")
        finally:
            for device in (pad, mouse, keyboard):
                device.close()
        bridge.stop()
        assert bridge.process.returncode == 0, f"the user bridge exited {bridge.process.returncode} on SIGTERM"
