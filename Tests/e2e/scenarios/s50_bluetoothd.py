"""bluetoothd is killed and comes back: the bridge follows it."""
from __future__ import annotations

import time

from bridge_helpers import ensure_paired, gamepad, play_and_read, start_bridge, wait_streaming
from input_devices import expect_frames, wait_frames
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"

HOLD = """
at 0ms    press volume-up
at 300ms  end
"""
TAP = """
at 0ms    tap click 150ms
at 400ms  end
"""


@scenario("bridge: bluetoothd killed and restarted -> the bridge reconnects", needs=("run",))
def bridge_bluetoothd_restart(rig):
    """SIGKILL bluetoothd with a button held: the button is released, the bridge lives,
    and once bluetoothd is back it reconnects and events flow on the same node."""
    ensure_paired(rig, NAME, ADDRESS)
    mark = rig.emulator.mark()
    bridge = start_bridge(rig)
    pad = gamepad(rig)
    wait_streaming(rig, NAME, since=mark)

    _, frames = play_and_read(rig, NAME, HOLD, [pad])
    expect_frames(frames[pad], [["BTN_TR 1"]], "volume-up held")
    rig.kill_bluetoothd()
    released = wait_frames(pad, 1, timeout=15)
    assert bridge.alive(), "the bridge died with bluetoothd"
    expect_frames(released, [["BTN_TR 0"]], "release when bluetoothd vanished")
    # Let go, so the reconnected stream starts with nothing held.
    rig.emulator.request("play", name=NAME, text="at 0ms release volume-up\nat 10ms end", label="let go")

    mark = rig.emulator.mark()
    rig.start_bluetoothd()
    wait_streaming(rig, NAME, since=mark, timeout=90)
    # The link from before bluetoothd died may still be torn down once after
    # the first reconnect: wait until the stream has held for 3 s.
    for _ in range(5):
        settled = rig.emulator.mark()
        time.sleep(3)
        try:
            rig.emulator.wait_event("disconnected", NAME, since=settled, timeout=0.1)
        except AssertionError:
            break
        wait_streaming(rig, NAME, since=settled, timeout=90)
    assert bridge.alive(), "the bridge died while bluetoothd restarted"
    _, frames = play_and_read(rig, NAME, TAP, [pad])
    expect_frames(frames[pad], [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]], "after bluetoothd came back")
    pad.close()
