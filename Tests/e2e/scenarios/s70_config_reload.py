"""The config edited while the bridge runs."""
from __future__ import annotations

import os
import time

from bridge_helpers import ensure_paired, gamepad, play_and_read, start_bridge, wait_streaming
from input_devices import expect_frames
from processes import log_since
from rig import scenario
from timeline_texts import TAP_CLICK
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"

BEFORE = """
[bridge]
profile = "gamepad"

[profile.gamepad]
click = "BTN_SOUTH"
app = "BTN_WEST"
"""
# The same codes swapped: the device's capabilities stay the same.
AFTER = BEFORE.replace('click = "BTN_SOUTH"', 'click = "BTN_WEST"').replace('app = "BTN_WEST"', 'app = "BTN_SOUTH"')
BROKEN = AFTER.replace('click = "BTN_WEST"', 'click = "BTN_WEST')  # an unterminated string


@scenario("bridge: config edited while running -> new mapping, no restart; a broken edit keeps the old",
          needs=("run",))
def bridge_config_reload(rig):
    """An editor's save (write + rename) switches the mapping within seconds on the same
    device; a syntax error leaves the last good mapping running."""
    ensure_paired(rig, NAME, ADDRESS)
    mark = rig.emulator.mark()
    bridge = start_bridge(rig, BEFORE)
    pad = gamepad(rig)
    wait_streaming(rig, NAME, since=mark)

    _, frames = play_and_read(rig, NAME, TAP_CLICK, [pad])
    expect_frames(frames[pad], [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]], "before the edit")

    rig.write_config(AFTER)
    deadline = time.monotonic() + 15
    while True:
        _, frames = play_and_read(rig, NAME, TAP_CLICK, [pad])
        if [f.events for f in frames[pad]] != [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]] or time.monotonic() > deadline:
            break
    expect_frames(frames[pad], [["BTN_WEST 1"], ["BTN_WEST 0"]], "after the edit")
    assert bridge.alive(), "the bridge restarted or died on the edit"

    offset = os.path.getsize(bridge.log_path)
    rig.write_config(BROKEN)
    # Until the bridge has read the broken file and said it keeps the running config.
    kept = "so the running one stays"
    assert wait_until(lambda: kept in log_since(bridge, offset), timeout=15), \
        f"the bridge did not refuse the broken config in 15 s:\n{log_since(bridge, offset)[-2000:]}"
    _, frames = play_and_read(rig, NAME, TAP_CLICK, [pad])
    expect_frames(frames[pad], [["BTN_WEST 1"], ["BTN_WEST 0"]], "after a broken edit (the last good mapping)")
    assert bridge.alive(), "the bridge died on a broken config"
    assert not pad.gone, "the gamepad was recreated"
    pad.close()
