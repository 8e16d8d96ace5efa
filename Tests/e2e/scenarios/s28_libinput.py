"""libinput (Debian's libinput-tools) as a desktop sees the bridge's devices:
the mouse a pointer, the keyboard a keyboard, the gamepad left alone; the
pointer's motion, buttons and high-resolution scrolling, and the keys."""
from __future__ import annotations

import re

from bridge_helpers import GAMEPAD, KEYBOARD, MOUSE, play_and_read, run_bridge_command, start_streaming
from input_devices import wait_for_device
from mouse_checks import CONFIG
from libinput_cli import DebugEventsLog, libinput_devices
from rig import scenario
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
# s20's mouse profile (linear trackpad: timelines/mouse.tl moves 502 counts) and a scroll
# profile, whose BTN_SOUTH makes a gamepad for libinput to leave alone.
SCROLL_CONFIG = CONFIG + """
[profile.scroll]
touchpad = { mode = "scroll", detents = 8.0, horizontal = false }
click = "BTN_LEFT"
app = "BTN_SOUTH"
"""
# Down the pad's middle, then up a shorter way: 7 - 4.5 detents of scrolling.
SCROLL_TIMELINE = """rate 60
at 0ms touch 128 20
at 100ms touch 128 20 -> 128 240 over 500ms
at 800ms lift
at 1000ms touch 128 200
at 1100ms touch 128 200 -> 128 60 over 400ms
at 1700ms lift
at 2000ms end
"""


class DebugEvents(DebugEventsLog):
    """`libinput debug-events` on the udev seat, as a compositor reads it, with the keys' codes;
    once it has added the mouse and the keyboard."""

    def __init__(self, rig) -> None:
        super().__init__(rig.logs, "libinput-debug-events", [MOUSE, KEYBOARD], options=("--show-keycodes",))


def wheel_values(text: str) -> list[float]:
    """libinput's vertical wheel values (v120) in `text`."""
    return [float(v) for v in re.findall(r"POINTER_SCROLL_WHEEL\s+\S+\s+vert\s+-?[\d.]+/(-?[\d.]+)", text)]


def since(text: str, marker: int) -> str:
    return text[marker:]


@scenario("libinput: mouse = pointer with motion, buttons and hi-res scroll, keyboard = keys, gamepad ignored",
          needs=("run", "profile"), udev=True)
def libinput_clients(rig):
    """`libinput list-devices` and `debug-events` on seat0: the mouse has the pointer capability,
    the keyboard the keyboard one, the gamepad is not there. timelines/mouse.tl gives 502
    unaccelerated counts right, BTN_LEFT and BTN_RIGHT, KEY_LEFTMETA; in a scroll profile
    libinput's wheel total (v120) is the bridge's REL_WHEEL_HI_RES total."""
    start_streaming(rig, NAME, ADDRESS, SCROLL_CONFIG)
    pad = wait_for_device(lambda n: n == GAMEPAD, timeout=30)
    pad.close()
    mouse = wait_for_device(lambda n: n == MOUSE, timeout=30)
    keyboard = wait_for_device(lambda n: n == KEYBOARD, timeout=10)
    listed = {name: caps for name, caps in libinput_devices().items() if name.startswith("Daydream Controller")}
    assert listed == {MOUSE: "pointer", KEYBOARD: "keyboard"}, f"libinput list-devices: {listed}"

    debug = DebugEvents(rig)
    try:
        added = [line for line in debug.text().splitlines() if "DEVICE_ADDED" in line and "Daydream" in line]
        assert not [line for line in added if GAMEPAD in line], f"libinput took the gamepad: {added}"
        start = len(debug.text())
        play_and_read(rig, NAME, "mouse", [mouse, keyboard])
        switched = run_bridge_command(rig, "profile", "scroll")
        assert switched.returncode == 0, f"daydream-bridge profile scroll: {switched.stderr}"
        middle = len(debug.text())
        _, frames = play_and_read(rig, NAME, SCROLL_TIMELINE, [mouse])
        # Until libinput's wheel total is the bridge's (or 10 s); the assertion below says what differs.
        written = sum(int(e.rsplit(" ", 1)[1]) for f in frames[mouse] for e in f.events
                      if e.startswith("REL_WHEEL_HI_RES "))
        wait_until(lambda: sum(wheel_values(debug.text()[middle:])) == -written, timeout=10)
    finally:
        text = debug.stop()
        mouse.close()
        keyboard.close()
    pointer_part, scroll_part = text[start:middle], text[middle:]

    buttons = re.findall(r"POINTER_BUTTON\s+\S+\s+(BTN_\w+) \(\d+\) (pressed|released)", pointer_part)
    assert buttons == [("BTN_LEFT", "pressed"), ("BTN_LEFT", "released"), ("BTN_RIGHT", "pressed"),
                       ("BTN_RIGHT", "released")], f"libinput's buttons: {buttons}"
    keys = re.findall(r"KEYBOARD_KEY\s+\S+\s+(KEY_\w+) \(\d+\) (pressed|released)", pointer_part)
    assert keys == [("KEY_LEFTMETA", "pressed"), ("KEY_LEFTMETA", "released")], f"libinput's keys: {keys}"
    before_click = pointer_part.split("BTN_LEFT", 1)[0]
    motion = re.findall(r"POINTER_MOTION\s+\S+\s+\S+/\s*\S+\s+\(\s*([+-]?[\d.]+)/\s*([+-]?[\d.]+)\)", before_click)
    dx, dy = sum(float(x) for x, _ in motion), sum(float(y) for _, y in motion)
    assert motion and round(dx, 2) == 502 and dy == 0, \
        f"libinput's unaccelerated trackpad motion: {dx}, {dy} from {len(motion)} events (502, 0 expected)"

    wheel = wheel_values(scroll_part)
    hi_res = sum(int(e.rsplit(" ", 1)[1]) for f in frames[mouse] for e in f.events if e.startswith("REL_WHEEL_HI_RES "))
    detents = sum(int(e.rsplit(" ", 1)[1]) for f in frames[mouse] for e in f.events if e.startswith("REL_WHEEL "))
    assert hi_res != 0 and detents != 0, f"the scroll profile scrolled nothing: {frames[mouse]}"
    # The kernel's wheel is positive up, libinput's scroll positive down.
    assert wheel and sum(wheel) == -hi_res, \
        f"libinput's wheel v120 total {sum(wheel)} from {wheel}, the bridge's REL_WHEEL_HI_RES total {hi_res}"
    rig.figure(f"libinput: 502 counts of motion, wheel {hi_res / 120:.2f} detents ({detents} REL_WHEEL)")
