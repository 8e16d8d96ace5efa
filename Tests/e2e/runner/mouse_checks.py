"""What timelines/mouse.tl must give with the mouse config, shared by the
Bluetooth scenario (s20) and the replay one (s16)."""
from __future__ import annotations

import math

from bridge_helpers import relative
from input_devices import expect_frames

# Linear trackpad (acceleration 1.0) so the motion does not depend on timing.
CONFIG = """
[bridge]
profile = "mouse"
hold-time = "1s"

[profile.mouse]
touchpad = { mode = "trackpad", speed = 1.0, acceleration = 1.0 }
click = "BTN_LEFT"
app = { tap = "BTN_RIGHT", hold = "BTN_MIDDLE" }
home = { tap = "KEY_LEFTMETA", hold = "air-mouse" }
volume-up = "KEY_VOLUMEUP"
volume-down = "KEY_VOLUMEDOWN"
air-mouse = { speed = 1.0, deadzone = 0.05 }
"""

GYRO_RAD_PER_S = 400 * 2048 / 4095 * math.pi / 180  # raw 400 counts
# About 0.5 s at that rate less the 0.05 rad/s drift dead zone, 1000 counts a radian, leftwards.
AIR_MOUSE_EXPECTED = -(GYRO_RAD_PER_S - 0.05) * 0.5 * 1000


def check_mouse(mouse_frames, keyboard_frames, start) -> int:
    """The exact parts of timelines/mouse.tl's output, and the air mouse's
    motion within bounds; `start` is the timeline's start (ns, CLOCK_MONOTONIC).
    Returns the air mouse's REL_X sum."""
    motion = [f for f in mouse_frames if any(e.startswith("REL_") for e in f.events)]
    buttons = [f for f in mouse_frames if not any(e.startswith("REL_") for e in f.events)]
    expect_frames(buttons, [["BTN_LEFT 1"], ["BTN_LEFT 0"], ["BTN_RIGHT 1"], ["BTN_RIGHT 0"]], "mouse buttons")
    expect_frames(keyboard_frames, [["KEY_LEFTMETA 1"], ["KEY_LEFTMETA 0"]], "keyboard (home tapped)")

    # The phases are told apart by the frames that bound them, not by time since
    # the start: a loaded machine may stall the bridge for a second anywhere.
    click = mouse_frames.index(next(f for f in mouse_frames if f.events == ["BTN_LEFT 1"]))
    right_up = mouse_frames.index(next(f for f in mouse_frames if f.events == ["BTN_RIGHT 0"]))
    meta_t = next(f.t_ns for f in keyboard_frames if f.events == ["KEY_LEFTMETA 1"])

    # Trackpad (before the click): 128/255 of the pad at 1000 counts a pad: 501.96 -> 502, no vertical motion.
    before_click = [f for f in mouse_frames[:click] if f in motion]
    trackpad_x = [v for _, v in relative(before_click, start, "REL_X")]
    trackpad_y = [v for _, v in relative(before_click, start, "REL_Y")]
    every = [(round(t), e) for f in motion for t, e in [((f.t_ns - start) / 1e6, " ".join(f.events))]]
    assert sum(trackpad_x) == 502 and all(v > 0 for v in trackpad_x), \
        f"trackpad REL_X {trackpad_x}; all motion (ms after the start, events): {every}"
    assert not trackpad_y, f"trackpad REL_Y {trackpad_y}"
    assert not [f for f in mouse_frames[click:right_up] if f in motion], "motion between the click and app's tap"

    # Air mouse (after app's tap, before the second turn with home released, 600 ms
    # before home's tap): about 0.5 s at 3.49 rad/s less the 0.05 rad/s drift dead
    # zone, 1000 counts a radian.
    second_turn = meta_t - 600_000_000
    air = [f for f in mouse_frames[right_up:] if f in motion and f.t_ns < second_turn]
    air_x = [v for _, v in relative(air, start, "REL_X")]
    air_y = [v for _, v in relative(air, start, "REL_Y")]
    expected = AIR_MOUSE_EXPECTED
    assert air_x and all(v < 0 for v in air_x), f"air mouse REL_X {air_x}; all motion: {every}"
    assert 0.6 * expected >= sum(air_x) >= 1.4 * expected, \
        f"air mouse moved {sum(air_x)} counts, expected about {expected:.0f}"
    assert not air_y, f"air mouse REL_Y {air_y}"
    late = [f for f in motion if f.t_ns >= second_turn]
    assert not late, f"the pointer moved after home was released: {late}"
    return sum(air_x)
