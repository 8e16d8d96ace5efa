"""Latency: the emulator's write to /dev/vhci -> the kernel timestamp of the
resulting uinput event, per packet; and the bridge's CPU time per packet.
A figure, not a pass/fail (it fails only if no packet can be matched)."""
from __future__ import annotations

import os
import statistics

from bridge_helpers import ensure_paired, gamepad, play_and_read, start_bridge, wait_streaming
from packet import Packet
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
SECONDS = 10
STALL_NS = 50_000_000

# The click pressed in every other packet: each packet changes BTN_SOUTH, so
# each yields exactly one frame, and its value says which packet it was.
TIMELINE = f"""
rate 60
at 0ms     alternate click
at {SECONDS * 1000}ms alternate none
at {SECONDS * 1000 + 100}ms end
"""

CONFIG = """
[bridge]
profile = "gamepad"

[profile.gamepad]
click = "BTN_SOUTH"
"""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


@scenario("latency: vhci write -> uinput event, and the bridge's CPU per packet", needs=("run",))
def latency(rig):
    """p50/p99 (with and without >50 ms stall windows)/max, and CPU per packet."""
    ensure_paired(rig, NAME, ADDRESS)
    mark = rig.emulator.mark()
    bridge = start_bridge(rig, CONFIG)
    pad = gamepad(rig)
    wait_streaming(rig, NAME, since=mark)

    log_path = os.path.join(rig.logs, "vhci-notifications.txt")
    rig.emulator.request("notifications", path=log_path, clear=True)
    cpu_before = bridge.cpu_seconds()
    start, frames = play_and_read(rig, NAME, TIMELINE, [pad], settle=0.5)
    cpu_after = bridge.cpu_seconds()
    rig.emulator.request("notifications", path=log_path, clear=True)

    sends = []  # (t_ns, click down)
    with open(log_path) as file:
        for line in file:
            t_ns, _acl, _att, value = line.split()
            data = bytes.fromhex(value)
            if len(data) == 20 and int(t_ns) >= start:
                sends.append((int(t_ns), bool(Packet.decode(data).buttons & 0x01)))
    events = []  # (t_ns, click down)
    for frame in frames[pad]:
        for event in frame.events:
            if event.startswith("BTN_SOUTH "):
                events.append((frame.t_ns, event.endswith(" 1")))
    # Each event belongs to the latest packet of its value sent before it.
    latencies, windows = [], []
    index = 0
    for t_event, down in events:
        while index + 1 < len(sends) and sends[index + 1][0] <= t_event:
            index += 1
        j = index
        while j >= 0 and sends[j][1] != down:
            j -= 1
        if j >= 0 and sends[j][0] <= t_event:
            latencies.append((t_event - sends[j][0]) / 1e6)
            windows.append((sends[j][0], t_event))
    assert latencies, f"no event matched a packet ({len(sends)} packets sent, {len(events)} events)"
    stalls = [(a[0], b[0]) for a, b in zip(sends, sends[1:]) if b[0] - a[0] > STALL_NS]
    calm = [lat for lat, (s, e) in zip(latencies, windows)
            if not any(s < stall_end and e > stall_start for stall_start, stall_end in stalls)]
    packets = len(sends)
    rate = packets / ((sends[-1][0] - sends[0][0]) / 1e9) if packets > 1 else 0
    rig.figure(f"latency over {packets} packets ({rate:.0f}/s), {len(latencies)} events matched: "
               f"p50 {statistics.median(latencies):.2f} ms, p99 {percentile(latencies, 0.99):.2f} ms, "
               f"max {max(latencies):.2f} ms")
    if calm:
        rig.figure(f"latency without the {len(stalls)} stall window(s) over 50 ms: "
                   f"p50 {statistics.median(calm):.2f} ms, p99 {percentile(calm, 0.99):.2f} ms ({len(calm)} events)")
    cpu = cpu_after - cpu_before
    rig.figure(f"bridge CPU: {cpu * 1000 / max(packets, 1):.3f} ms per packet ({cpu:.2f} s for {packets} packets)")
    pad.close()
