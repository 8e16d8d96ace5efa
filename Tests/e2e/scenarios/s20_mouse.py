"""The mouse profile: trackpad motion, click, air mouse while home is held."""
from __future__ import annotations

from evdev import ecodes

from bridge_helpers import KEYBOARD, MOUSE, ensure_paired, play_and_read, start_bridge, wait_streaming
from input_devices import wait_for_device
from mouse_checks import AIR_MOUSE_EXPECTED, CONFIG, check_mouse
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"


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
    moved = check_mouse(frames[mouse], frames[keyboard], start)
    rig.figure(f"air mouse: {moved} counts for about {AIR_MOUSE_EXPECTED:.0f} expected (timing-dependent)")
