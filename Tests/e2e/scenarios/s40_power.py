"""The controller powers off with a button held, then on again."""
from __future__ import annotations

import os

from bridge_helpers import ensure_paired, gamepad, play_and_read, start_bridge, stick, wait_streaming
from input_devices import expect_frames
from rig import scenario
from timeline_texts import HOLD_THEN_OFF, TAP_CLICK

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"


@scenario("bridge: power off with a button held releases it; power on reconnects on the same node",
          needs=("run",))
def bridge_power_cycle(rig):
    """Release-all on the link drop (button up, stick centred); after power on the
    bridge reconnects and events come out of the same, still-open event node."""
    ensure_paired(rig, NAME, ADDRESS)
    mark = rig.emulator.mark()
    start_bridge(rig)
    pad = gamepad(rig)
    node = pad.path
    wait_streaming(rig, NAME, since=mark)

    x, y = stick(255, 128)
    rig.emulator.request("notifications", path=os.path.join(rig.logs, "vhci-power.txt"), clear=True)
    _, frames = play_and_read(rig, NAME, HOLD_THEN_OFF, [pad], settle=1.5)
    # Kept for diagnosis: every packet the bridge was sent before the link dropped.
    rig.emulator.request("notifications", path=os.path.join(rig.logs, "vhci-power.txt"), clear=True)
    expect_frames(frames[pad], [[f"ABS_X {x}", f"ABS_Y {y}"], ["BTN_SOUTH 1"],
                                ["BTN_SOUTH 0", "ABS_X 0", "ABS_Y 0"]], "power off with click held")
    dropped = rig.emulator.wait_event("disconnected", NAME, since=mark, reason=0x15)
    release = frames[pad][-1].t_ns
    rig.figure(f"power off -> buttons released on the virtual device: {(release - dropped['t_ns']) / 1e6:.0f} ms")

    mark = rig.emulator.mark()
    rig.emulator.request("power", name=NAME, on=True)
    powered = rig.emulator.wait_event("powered", NAME, since=mark, on=True)
    wait_streaming(rig, NAME, since=mark, timeout=90)
    subscribed = rig.emulator.wait_event("subscribed", NAME, since=mark, on=True)
    rig.figure(f"power on -> bridge notifying again: {(subscribed['t_ns'] - powered['t_ns']) / 1e9:.2f} s")

    assert not pad.gone, "the gamepad's event node went away over the reconnect"
    _, frames = play_and_read(rig, NAME, TAP_CLICK, [pad])
    expect_frames(frames[pad], [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]], "after reconnecting, on the same open node")
    again = gamepad(rig)
    assert again.path == node, f"the gamepad moved from {node} to {again.path}"
    again.close()
    pad.close()
