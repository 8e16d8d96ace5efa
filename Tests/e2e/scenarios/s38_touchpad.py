"""The touchpad device (touchpad = { mode = "touchpad" }): a touchpad to real
udev and to libinput, whose pointer motion follows a swipe and whose
tap-to-click turns a short touch into a click."""
from __future__ import annotations

import os
import re

from evdev import ecodes

from bridge_helpers import start_streaming_to
from input_devices import FrameRecorder, wait_for_device
from packet import Packet
from libinput_cli import DebugEventsLog, check_pointer_class, libinput_device_options, unaccelerated_motion
from rig import scenario
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
TOUCHPAD = "Daydream Controller Touchpad"
CONFIG = """
[profile.pad]
touchpad = { mode = "touchpad" }
"""
BUTTON = re.compile(r"POINTER_BUTTON\s+\S+\s+BTN_LEFT \(\d+\) (pressed|released)")
# A swipe right across the middle, a pause, then a tap (60 ms, still), then time for
# libinput's tap timeout to pass.
# libinput's tap timeout (DEFAULT_TAP_TIMEOUT_PERIOD): a touch held longer is no tap.
TAP_TIMEOUT_MS = 180
TIMELINE = """rate 60
at 100ms touch 60 128
at 200ms touch 60 128 -> 200 128 over 400ms
at 700ms lift
at 1200ms touch 128 128
at 1260ms lift
at 2200ms end
"""


@scenario("touchpad device: a touchpad to udev and libinput; a swipe moves the pointer, a tap clicks",
          needs=("run",), udev=True)
def touchpad_device(rig):
    """touchpad = { mode = "touchpad" } makes "Daydream Controller Touchpad" (0006:da7d:0006,
    one multitouch slot, ABS_X/Y and the slot's position 0...255 at 8 units/mm, BTN_TOUCH,
    BTN_TOOL_FINGER, BTN_LEFT, INPUT_PROP_POINTER and INPUT_PROP_BUTTONPAD): udev's ID_INPUT_TOUCHPAD
    and nothing else; libinput lists it as a pointer with tapping (off by default) and edge
    scrolling, the options of a touchpad. With tapping on, a swipe right gives POINTER_MOTION to the right and no click;
    a 60 ms touch gives one BTN_LEFT press and release."""
    touchpad = start_streaming_to(rig, NAME, ADDRESS, CONFIG, TOUCHPAD, product=0x0006)
    try:
        assert sorted(touchpad.device.input_props()) == [ecodes.INPUT_PROP_POINTER, ecodes.INPUT_PROP_BUTTONPAD], \
            f"input properties: {touchpad.device.input_props()}"
        capabilities = touchpad.device.capabilities(absinfo=True)
        axes = dict(capabilities.get(ecodes.EV_ABS, []))
        for code in (ecodes.ABS_X, ecodes.ABS_Y, ecodes.ABS_MT_POSITION_X, ecodes.ABS_MT_POSITION_Y):
            assert (axes[code].min, axes[code].max, axes[code].resolution) == (0, 255, 8), f"axis {code}: {axes[code]}"
        assert axes[ecodes.ABS_MT_SLOT].max == 0, f"slots: {axes[ecodes.ABS_MT_SLOT]}"
        check_pointer_class(touchpad, TOUCHPAD, "ID_INPUT_TOUCHPAD", "touchpad")
        block = libinput_device_options(TOUCHPAD)
        # Tapping and edge scrolling are a touchpad's options (a mouse shows n/a); one finger
        # only, so no two-finger scrolling and no gestures.
        assert block.get("Tap-to-click") == "disabled", f"libinput's touchpad: {block}"
        assert "edge" in block.get("Scroll methods", ""), f"libinput's touchpad: {block}"
    finally:
        touchpad.close()

    libinput = DebugEventsLog(rig.logs, "libinput-touchpad-events", [TOUCHPAD], options=("--enable-tap",), realtime=True)
    # Beside libinput, the node itself: the kernel's times of the bridge's writes.
    node = wait_for_device(lambda n: n == TOUCHPAD, timeout=30)
    recorder = FrameRecorder([node])
    # What the emulator writes to /dev/vhci from here on, with the CLOCK_MONOTONIC time of each write.
    sent_path = os.path.join(rig.logs, "vhci-touchpad.txt")
    rig.emulator.request("notifications", path=sent_path, clear=True)
    try:
        started_at = len(libinput.text())
        mark = rig.emulator.mark()
        length = rig.play(NAME, TIMELINE)
        rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=length + 30)
        wait_until(lambda: BUTTON.findall(libinput.text()[started_at:]).count("released") >= 1, timeout=10)
    finally:
        rig.emulator.request("notifications", path=sent_path, clear=True)
        text = libinput.stop()
        frames = [frame for _, frame in recorder.stop()]
        node.close()
    # The tap as the controller sent it: the last run of packets touching the middle, to the
    # packet after it.
    with open(sent_path, encoding="utf-8") as file:
        sent = [(int(line.split()[0]), Packet.decode(data)) for line in file
                if len(data := bytes.fromhex(line.split()[3])) == 20]
    touching = [(packet.touch_x, packet.touch_y) == (128, 128) for _, packet in sent]
    tap_end = max(index for index in range(1, len(sent)) if touching[index - 1] and not touching[index])
    tap_start = tap_end - 1
    while tap_start > 0 and touching[tap_start - 1]:
        tap_start -= 1
    sent_ms = (sent[tap_end][0] - sent[tap_start][0]) / 1e6
    # The tap as written: its BTN_TOUCH down and up, by the kernel's clock. The bridge must not
    # stretch a 60 ms touch past libinput's tap timeout, however late the packets come.
    touches = [(frame.t_ns, value) for frame in frames for (kind, code, value) in frame.raw
               if kind == ecodes.EV_KEY and code == ecodes.BTN_TOUCH]
    assert [value for _, value in touches[-2:]] == [1, 0], f"BTN_TOUCH on the touchpad: {touches}"
    tap_ms = (touches[-1][0] - touches[-2][0]) / 1e6
    assert tap_ms < TAP_TIMEOUT_MS, \
        f"the 60 ms touch, sent {sent_ms:.0f} ms long, was written {tap_ms:.0f} ms long: past libinput's tap timeout"
    events = text[started_at:]
    motion = unaccelerated_motion(events)
    buttons = BUTTON.findall(events)
    assert len(motion) >= 5, f"libinput saw {len(motion)} POINTER_MOTION events: {events}"
    right = sum(x for x, _ in motion)
    down = sum(y for _, y in motion)
    assert right > 20 and abs(down) < right / 4, f"the swipe right moved the pointer by ({right:.1f}, {down:.1f})"
    # libinput says "your system is too slow" when it reads an event later than its timers allowed.
    late = [line.strip() for line in events.splitlines() if "too slow" in line]
    assert buttons == ["pressed", "released"], \
        f"libinput's BTN_LEFT from the tap: {buttons}; the touch was sent {sent_ms:.0f} ms and written {tap_ms:.0f} ms long; " \
        f"libinput's complaints of lateness: {late or 'none'}"
    rig.figure(f"touchpad device: libinput moved the pointer ({right:.1f}, {down:.1f}) for a 140-unit swipe right "
               f"({len(motion)} POINTER_MOTION), and the 60 ms touch, sent {sent_ms:.0f} ms and written {tap_ms:.0f} ms long "
               f"(libinput's tap timeout {TAP_TIMEOUT_MS} ms), was one tap click")
