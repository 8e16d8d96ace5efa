"""bluetoothd is killed and comes back: the bridge follows it."""
from __future__ import annotations

import time

from bridge_helpers import ensure_paired, gamepad, play_and_read, start_bridge, wait_streaming
from input_devices import expect_frames, wait_frames
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
# How long the link must hold after the reconnect, without a flap.
HOLD_S = 6

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
    # Not one flap: once streaming again, the link holds (no disconnect, no second
    # subscription; the bridge used to tear down a link that still delivered, up to
    # five times, after bluetoothd dropped its connected flag).
    time.sleep(HOLD_S)
    rig.emulator.poll()
    events = [e for e in rig.emulator.events[mark:] if e.get("name") == NAME]
    first = next(i for i, e in enumerate(events) if e["event"] == "subscribed" and e.get("on"))
    flaps = [e for e in events[first + 1:]
             if e["event"] == "disconnected" or (e["event"] == "subscribed" and e.get("on"))]
    assert not flaps, "the link flapped after bluetoothd came back: " + \
        "; ".join(f"{e['event']}{' on' if e.get('on') else ''}" for e in flaps)
    assert bridge.alive(), "the bridge died while bluetoothd restarted"
    _, frames = play_and_read(rig, NAME, TAP, [pad])
    expect_frames(frames[pad], [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]], "after bluetoothd came back")
    pad.close()
