"""Latency with a Gear VR beside a Daydream's in the same run: the emulator's write to
/dev/vhci -> the kernel timestamp of the stick event the bridge wrote for it, per packet,
and the bridge's CPU per packet. Figures, not pass/fail: it fails only when packets and
events do not pair one to one. (s90 also measures the rig's own Python reader on the
Daydream; a Gear VR only streams after its start sequence, which that reader does not do.)"""
from __future__ import annotations

import os
import statistics

from bridge_helpers import ensure_paired, gamepad, play_and_read, start_bridge, unpair, wait_streaming
from gear_vr import GEAR, GEAR_ADDRESS, PACKET_SIZE, TOUCH_MAX, gear_vr, start_order
from gear_vr_packet import GearVRPacket
from notify_reader import percentile, vhci_writes
from packet import Packet
from rig import scenario

DAYDREAM, DAYDREAM_ADDRESS = "pad", "C0:DD:EE:00:00:01"
SWEEPS, SWEEP_MS = 5, 2000
STALL_NS = 50_000_000
CONFIG = """
[bridge]
profile = "stick"

[profile.stick]
touchpad = { mode = "stick", deadzone = 0.0, saturation = 1.0, shape = "square" }
"""


def sweep(top: int) -> str:
    """The finger across the pad and back, moving it every packet (raw x 1...top)."""
    lines = []
    for index in range(SWEEPS):
        start, end = (1, top) if index % 2 == 0 else (top, 1)
        lines.append(f"at {index * SWEEP_MS}ms touch {start} {top // 2} -> {end} {top // 2} over {SWEEP_MS}ms")
    lines.append(f"at {SWEEPS * SWEEP_MS}ms lift")
    lines.append(f"at {SWEEPS * SWEEP_MS + 100}ms end")
    return "\n".join(lines) + "\n"


def summary(delays: list[float]) -> str:
    ordered = sorted(delays)
    return f"p50 {statistics.median(ordered):.2f} ms, p99 {percentile(ordered, 0.99):.2f} ms, max {ordered[-1]:.2f} ms"


def measure(rig, name: str, address: str, timeline: str, size: int, touch_x, label: str, family_start=None):
    """The bridge alone with controller `name`: latencies (ms) of each packet that moved
    the finger, calm ones (no >50 ms stall around them), the packet rate, CPU per packet."""
    ensure_paired(rig, name, address)
    mark = rig.emulator.mark()
    bridge = start_bridge(rig, CONFIG)
    pad = gamepad(rig)
    wait_streaming(rig, name, since=mark)
    if family_start:
        family_start(rig, name, since=mark)
    log_path = os.path.join(rig.logs, f"vhci-notifications-{name}.txt")
    rig.emulator.request("notifications", path=log_path, clear=True)
    cpu_before = bridge.cpu_seconds()
    start, frames = play_and_read(rig, name, timeline, [pad], settle=0.5)
    cpu = bridge.cpu_seconds() - cpu_before
    rig.emulator.request("notifications", path=log_path, clear=True)
    pad.close()
    bridge.stop()
    sends = [(t_ns, touch_x(data)) for t_ns, data in vhci_writes(log_path) if len(data) == size and t_ns >= start]
    sends = [(t_ns, x) for (t_ns, x), previous in zip(sends, [(0, 0)] + sends) if x != previous[1]]
    events = [frame.t_ns for frame in frames[pad] if any(e.startswith("ABS_X ") for e in frame.events)]
    def ms(t_ns: int) -> float:
        return round((t_ns - start) / 1e6, 1)
    assert len(events) == len(sends), \
        f"{label}: {len(sends)} packets moved the finger but the stick moved {len(events)} times " \
        f"(ms after the start: packets {[(ms(t), x) for t, x in sends[:3]]} ... {[(ms(t), x) for t, x in sends[-3:]]}, " \
        f"events {[ms(t) for t in events[:3]]} ... {[ms(t) for t in events[-3:]]})"
    late = [(s, e) for (s, _x), e in zip(sends, events) if e < s]
    assert not late, f"{label}: {len(late)} events came before their packet: the pairing is off"
    latencies = [(e - s) / 1e6 for (s, _x), e in zip(sends, events)]
    stalls = [(a[0], b[0]) for a, b in zip(sends, sends[1:]) if b[0] - a[0] > STALL_NS]
    calm = [lat for lat, (s, _x), e in zip(latencies, sends, events)
            if not any(s < stall_end and e > stall_start for stall_start, stall_end in stalls)]
    rate = len(sends) / ((sends[-1][0] - sends[0][0]) / 1e9)
    rig.figure(f"{label}: latency over {len(sends)} packets ({rate:.0f}/s): {summary(latencies)}")
    if calm:
        rig.figure(f"{label}: without the {len(stalls)} stall window(s) over 50 ms: {summary(calm)}")
    rig.figure(f"{label}: bridge CPU {cpu * 1000 / len(sends):.3f} ms per packet ({cpu:.2f} s for {len(sends)})")
    return statistics.median(latencies), cpu / len(sends)


def gear_touch_x(data: bytes) -> int:
    packet = GearVRPacket.decode(data)
    return min(packet.touch_x, TOUCH_MAX)


@scenario("latency: a Gear VR beside a Daydream (vhci write -> uinput event; CPU per packet)", needs=("run",))
def gear_vr_latency(rig):
    """The same sweep, one controller at a time, the same config: p50/p99 (with and without
    >50 ms stall windows) and CPU per packet for a Daydream (60 packets/s, one sample) and
    for a Gear VR (68 packets/s, three samples)."""
    daydream = measure(rig, DAYDREAM, DAYDREAM_ADDRESS, sweep(255), 20, lambda data: Packet.decode(data).touch_x,
                       "daydream")
    rig.emulator.request("power", name=DAYDREAM, on=False)
    gear_vr(rig)
    try:
        gear = measure(rig, GEAR, GEAR_ADDRESS, sweep(TOUCH_MAX), PACKET_SIZE, gear_touch_x, "gear vr",
                       family_start=start_order)
    finally:
        unpair(rig, GEAR, GEAR_ADDRESS)
    rig.figure(f"gear vr / daydream: p50 {gear[0] / daydream[0]:.2f}x, CPU per packet {gear[1] / daydream[1]:.2f}x")
