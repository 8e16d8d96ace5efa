"""The legacy joystick API (joydev, /dev/input/js*) as `jstest` from Debian's
joystick package reads it: the gamepad's axes and buttons, and no js node
for the mouse or the keyboard."""
from __future__ import annotations

import glob
import os
import re
import signal
import subprocess
import time

from bridge_helpers import GAMEPAD, KEYBOARD, MOUSE, expected_gamepad_frames, start_streaming
from input_devices import wait_for_device
from processes import wait_or_kill
from rig import scenario
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
# joydev numbers buttons from BTN_JOYSTICK up (then those below it) and axes in code order.
BUTTONS = ["BTN_SOUTH", "BTN_EAST", "BTN_TL", "BTN_TR", "BTN_START", "BTN_MODE"]
AXES = ["ABS_X", "ABS_Y"]


def js_nodes(event_path: str) -> list[str]:
    """The joydev nodes of an input device, from sysfs."""
    event = os.path.basename(event_path)
    return sorted("/dev/input/" + os.path.basename(p) for p in glob.glob(f"/sys/class/input/{event}/device/js*"))


def jstest_events(output: str) -> list[tuple[int, int, int]]:
    """jstest's events as (type, number, value); type has 0x80 set for the initial state."""
    return [tuple(int(v) for v in m) for m in
            re.findall(r"Event: type (\d+), time -?\d+, number (\d+), value (-?\d+)", output)]


def live_events(output: str) -> list[tuple[int, int, int]]:
    """The events after jstest's initial state."""
    return [(t, n, v) for t, n, v in jstest_events(output) if not t & 0x80]


def joydev_value(value: int) -> int:
    """joydev's correction for a -32768...32767 axis with flat 0: the value, clamped to -32767...32767."""
    return max(-32767, min(32767, value))


@scenario("joydev: jstest sees the gamepad's 2 axes and 6 buttons and every event; no js node for mouse or keyboard",
          needs=("run",), udev=True)
def joydev_jstest(rig):
    """With the default config: `jstest` names the pad, its axes (X, Y) and buttons (BtnA, BtnB,
    BtnTL, BtnTR, BtnStart, BtnMode); during timelines/gamepad.tl it reports each axis value
    (joydev's range, -32767...32767) and each button press and release, in order."""
    subprocess.run(["modprobe", "joydev"], check=True, timeout=30)
    start_streaming(rig, NAME, ADDRESS)
    devices = {name: wait_for_device(lambda n, name=name: n == name, timeout=30) for name in (GAMEPAD, MOUSE, KEYBOARD)}
    paths = {name: device.path for name, device in devices.items()}
    for device in devices.values():
        device.close()
    deadline = time.monotonic() + 10
    while not js_nodes(paths[GAMEPAD]) or not all(os.path.exists(n) for n in js_nodes(paths[GAMEPAD])):
        assert time.monotonic() < deadline, f"no joydev node for the gamepad ({paths[GAMEPAD]}) after modprobe joydev"
        time.sleep(0.1)
    for name in (MOUSE, KEYBOARD):
        assert not js_nodes(paths[name]), f"the {name} has a joystick node: {js_nodes(paths[name])}"
    (node,) = js_nodes(paths[GAMEPAD])

    log_path = os.path.join(rig.logs, "jstest.log")
    with open(log_path, "w") as log:
        jstest = subprocess.Popen(["stdbuf", "-oL", "jstest", "--event", node], stdout=log, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 10
            while "Testing ..." not in open(log_path).read():
                assert jstest.poll() is None, f"jstest exited {jstest.returncode}: {open(log_path).read()}"
                assert time.monotonic() < deadline, f"jstest did not start: {open(log_path).read()}"
                time.sleep(0.1)
            mark = rig.emulator.mark()
            length = rig.play(NAME, "gamepad")
            rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=length + 30)
            # Until jstest has printed an event for each the bridge wrote (or 10 s).
            wanted = sum(len(frame) for frame in expected_gamepad_frames(rig))
            wait_until(lambda: len(live_events(open(log_path).read())) >= wanted, timeout=10)
        finally:
            jstest.send_signal(signal.SIGINT)
            wait_or_kill(jstest, timeout=5)
    output = open(log_path).read()

    header = f"Joystick ({GAMEPAD}) has 2 axes (X, Y)\nand 6 buttons (BtnA, BtnB, BtnTL, BtnTR, BtnStart, BtnMode)."
    assert header in output, f"jstest's description is not {header!r}:\n{output[:600]}"
    initial = [(t & 0x7F, n, v) for t, n, v in jstest_events(output) if t & 0x80]
    live = live_events(output)
    expected_initial = [(1, n, 0) for n in range(len(BUTTONS))] + [(2, n, 0) for n in range(len(AXES))]
    assert sorted(initial) == sorted(expected_initial), f"jstest's initial state: {initial}"
    expected = []
    for frame in expected_gamepad_frames(rig):
        for event in frame:
            code, value = event.rsplit(" ", 1)
            if code in AXES:
                expected.append((2, AXES.index(code), joydev_value(int(value))))
            else:
                expected.append((1, BUTTONS.index(code), int(value)))
    assert live == expected, f"jstest's events (type, number, value): {live}, expected {expected}"
