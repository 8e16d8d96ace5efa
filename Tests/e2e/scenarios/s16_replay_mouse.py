"""The mouse profile on real uinput without Bluetooth: `replay --uinput` of
the mouse timeline, checked like the Bluetooth mouse scenario."""
from __future__ import annotations

import os

from bridge_helpers import KEYBOARD, MOUSE
import mouse_checks
from input_devices import read_many, wait_for_device
from rig import scenario
from timeline import Timeline, to_recording

LEAD_IN_MS = 2500
TAIL_MS = 1500
CLICK_AT_MS = 800  # timelines/mouse.tl taps click here


@scenario("bridge: replay --uinput of the mouse timeline (trackpad, click, air mouse)", needs=("replay",))
def bridge_replay_mouse(rig):
    """Trackpad sum exact, buttons and keys exact, air mouse only while home is held."""
    config = os.path.join(rig.logs, "mouse-config.toml")
    with open(config, "w", encoding="utf-8") as file:
        file.write(mouse_checks.CONFIG)
    with open(os.path.join(rig.e2e, "timelines", "mouse.tl"), encoding="utf-8") as file:
        timeline = Timeline.parse(file.read(), "mouse.tl")
    path = os.path.join(rig.logs, "mouse-timeline.recording")
    with open(path, "w", encoding="utf-8") as file:
        file.write(to_recording(timeline, "C0:DD:EE:00:00:01", LEAD_IN_MS, TAIL_MS))

    replay = rig.bridge("replay", path, "--uinput", "--config", config, name="replay")
    mouse = wait_for_device(lambda n: n == MOUSE, timeout=60)
    keyboard = wait_for_device(lambda n: n == KEYBOARD, timeout=10)
    frames = read_many([mouse, keyboard], (timeline.end_ms + TAIL_MS + LEAD_IN_MS) / 1000 + 15)
    code = replay.stop(timeout=10)
    assert code == 0, f"replay exited {code}"
    clicks = [f for f in frames[mouse] if f.events == ["BTN_LEFT 1"]]
    assert clicks, f"no click on the mouse: {frames[mouse]}"
    start = clicks[0].t_ns - CLICK_AT_MS * 1_000_000
    moved = mouse_checks.check_mouse(frames[mouse], frames[keyboard], start)
    rig.figure(f"replayed air mouse: {moved} counts for about {mouse_checks.AIR_MOUSE_EXPECTED:.0f} expected")
    mouse.close()
    keyboard.close()
