"""The mapping and the virtual devices on real uinput, without Bluetooth:
`daydream-bridge replay --uinput` plays the gamepad timeline as a recording."""
from __future__ import annotations

import os
import time

from bridge_helpers import GAMEPAD, KEYBOARD, MOUSE, check_classes, expected_gamepad_frames
from input_devices import expect_frames, read_many, udev_properties_of, wait_for_device
from rig import scenario
from timeline import Timeline, to_recording

LEAD_IN_MS = 2500  # time to find and open the device before any input
TAIL_MS = 1500


@scenario("bridge: replay --uinput of the gamepad timeline (exact events; udev classes)", needs=("replay",),
          udev=True)
def bridge_replay_uinput(rig):
    """The same exact frames as the Bluetooth scenario, from a recording played into real
    uinput; meanwhile udev's input_id classifies the default config's three devices."""
    expected = expected_gamepad_frames(rig)
    with open(os.path.join(rig.e2e, "timelines", "gamepad.tl"), encoding="utf-8") as file:
        timeline = Timeline.parse(file.read(), "gamepad.tl")
    path = os.path.join(rig.logs, "gamepad-timeline.recording")
    with open(path, "w", encoding="utf-8") as file:
        file.write(to_recording(timeline, "C0:DD:EE:00:00:01", LEAD_IN_MS, TAIL_MS))
    started = time.monotonic()
    replay = rig.bridge("replay", path, "--uinput", name="replay")
    # The devices exist before playback starts; the lead-in covers opening them.
    pad = wait_for_device(lambda n: n == GAMEPAD, timeout=60)
    rig.figure(f"replay --uinput: gamepad created {time.monotonic() - started:.1f} s after the start (emulated CPU)")
    # The pad's events wait in its buffer while udev is asked.
    mouse = wait_for_device(lambda n: n == MOUSE, timeout=5)
    keyboard = wait_for_device(lambda n: n == KEYBOARD, timeout=5)
    try:
        check_classes(*udev_properties_of([pad, mouse, keyboard]))
    finally:
        mouse.close()
        keyboard.close()
    frames = read_many([pad], (timeline.end_ms + TAIL_MS + LEAD_IN_MS) / 1000 + 10)[pad]
    code = replay.stop(timeout=10)
    assert code == 0, f"replay exited {code}"
    expect_frames(frames, expected, "replayed gamepad timeline")
    pad.close()
