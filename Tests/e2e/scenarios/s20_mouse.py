"""The mouse profile: trackpad motion, click, air mouse while home is held."""
from __future__ import annotations

import math

from evdev import ecodes

from bridge_helpers import KEYBOARD, MOUSE, ensure_paired, play_and_read, relative, start_bridge, wait_streaming
from input_devices import expect_frames, wait_for_device
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"

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


@scenario("bridge: mouse profile (trackpad, click, air mouse while home held)", needs=("run",))
def bridge_mouse(rig):
    """Trackpad motion sums exactly; click and app tap; the gyro moves the pointer only while home is held."""
    ensure_paired(rig, NAME, ADDRESS)
    mark = rig.emulator.mark()
    start_bridge(rig, CONFIG)
    mouse = wait_for_device(lambda n: n == MOUSE, timeout=30)
    keyboard = wait_for_device(lambda n: n == KEYBOARD, timeout=10)
    wait_streaming(rig, NAME, since=mark)

    capabilities = mouse.capabilities()
    assert ecodes.REL_X in capabilities.get(ecodes.EV_REL, []), "the mouse has no REL_X"
    assert ecodes.EV_ABS not in capabilities, "the mouse has absolute axes"

    start, frames = play_and_read(rig, NAME, "mouse", [mouse, keyboard])
    motion = [f for f in frames[mouse] if any(e.startswith("REL_") for e in f.events)]
    buttons = [f for f in frames[mouse] if not any(e.startswith("REL_") for e in f.events)]
    expect_frames(buttons, [["BTN_LEFT 1"], ["BTN_LEFT 0"], ["BTN_RIGHT 1"], ["BTN_RIGHT 0"]], "mouse buttons")
    expect_frames(frames[keyboard], [["KEY_LEFTMETA 1"], ["KEY_LEFTMETA 0"]], "keyboard (home tapped)")

    # Trackpad: 128/255 of the pad at 1000 counts a pad: 501.96 -> 502, no vertical motion.
    trackpad_x = [v for t, v in relative(motion, start, "REL_X") if t < 700]
    trackpad_y = [v for t, v in relative(motion, start, "REL_Y") if t < 700]
    assert sum(trackpad_x) == 502 and all(v > 0 for v in trackpad_x), f"trackpad REL_X {trackpad_x}"
    assert not trackpad_y, f"trackpad REL_Y {trackpad_y}"
    assert not [f for f in motion if 700 <= (f.t_ns - start) / 1e6 < 2650], "motion before the gyro turned"

    # Air mouse: about 0.5 s at 3.49 rad/s less the 0.05 rad/s drift dead zone, 1000 counts a radian.
    air_x = [v for t, v in relative(motion, start, "REL_X") if 2650 <= t < 3450]
    air_y = [v for t, v in relative(motion, start, "REL_Y") if 2650 <= t < 3450]
    expected = -(GYRO_RAD_PER_S - 0.05) * 0.5 * 1000
    assert air_x and all(v < 0 for v in air_x), f"air mouse REL_X {air_x}"
    assert 0.6 * expected >= sum(air_x) >= 1.4 * expected, \
        f"air mouse moved {sum(air_x)} counts, expected about {expected:.0f}"
    assert not air_y, f"air mouse REL_Y {air_y}"
    late = [f for f in motion if (f.t_ns - start) / 1e6 >= 3450]
    assert not late, f"the pointer moved after home was released: {late}"
    rig.figure(f"air mouse: {sum(air_x)} counts for about {expected:.0f} expected (timing-dependent)")
