"""Latency: the emulator's write to /dev/vhci -> the kernel timestamp of the
resulting uinput event, per packet, beside the rig's own Python AcquireNotify
reader on the same packets in the same run; and the bridge's CPU per packet.
Figures, not pass/fail: it fails only when packets and events do not pair one
to one, which would make the figures meaningless."""
from __future__ import annotations

import os
import statistics

from bluez import DEVICE, INPUT_UUID, device_path
from bridge_helpers import ensure_paired, gamepad, play_and_read, start_bridge, wait_streaming
from notify_reader import percentile, read_delays_ms, read_packets, vhci_writes
from packet import Packet
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
SWEEPS, SWEEP_MS = 5, 2000
STALL_NS = 50_000_000


def sweep_timeline() -> str:
    """The finger swept across the pad and back, so that every packet moves it: at 60
    packets a second a 2 s sweep over raw x 1..255 moves it about 2 units a packet, and
    each packet gives the stick exactly one ABS_X event. (A button toggled every packet
    does not: since tap-time a press lasts at least 120 ms, so events no longer follow
    packets one to one.)"""
    lines = ["rate 60"]
    for index in range(SWEEPS):
        start, end = (1, 255) if index % 2 == 0 else (255, 1)
        lines.append(f"at {index * SWEEP_MS}ms touch {start} 128 -> {end} 128 over {SWEEP_MS}ms")
    lines.append(f"at {SWEEPS * SWEEP_MS}ms lift")
    lines.append(f"at {SWEEPS * SWEEP_MS + 100}ms end")
    return "\n".join(lines) + "\n"


TIMELINE = sweep_timeline()

# The touchpad as the left stick with nothing that holds a value back: no dead zone,
# no saturation, so each new finger position is a new ABS_X.
CONFIG = """
[bridge]
profile = "stick"

[profile.stick]
touchpad = { mode = "stick", deadzone = 0.0, saturation = 1.0, shape = "square" }
"""


def summary(delays: list[float]) -> str:
    ordered = sorted(delays)
    return f"p50 {statistics.median(ordered):.2f} ms, p99 {percentile(ordered, 0.99):.2f} ms, max {ordered[-1]:.2f} ms"


def rig_reader_delays(rig, log_path: str) -> list[float]:
    """The same timeline read by the rig's Python AcquireNotify reader, the bridge stopped."""
    bluez = rig.bluez
    device = device_path(ADDRESS, rig.adapter)
    if not bluez.get(device, DEVICE, "Connected"):
        bluez.call(device, DEVICE, "Connect")
    bluez.wait_property(device, DEVICE, "ServicesResolved", True, timeout=30)
    mark = rig.emulator.mark()
    fd, mtu = bluez.acquire_notify(bluez.characteristic(device, INPUT_UUID))
    try:
        rig.emulator.wait_event("subscribed", NAME, since=mark, on=True)
        read_packets(fd, mtu, 0.3)  # whatever streamed before the timeline
        rig.emulator.request("notifications", path=log_path, clear=True)
        length = rig.play(NAME, TIMELINE)
        packets = read_packets(fd, mtu, length + 0.5)
        rig.emulator.request("notifications", path=log_path, clear=True)
    finally:
        os.close(fd)
    return read_delays_ms(packets, log_path)


@scenario("latency: vhci write -> uinput event, beside the rig's reader; the bridge's CPU per packet",
          needs=("run",))
def latency(rig):
    """p50/p99 (with and without >50 ms stall windows)/max, as a ratio to the rig's reader,
    and CPU per packet."""
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
    pad.close()
    bridge.stop()

    # The timeline's packets, and the finger's position in each.
    sends = [(t_ns, Packet.decode(data).touch_x) for t_ns, data in vhci_writes(log_path)
             if len(data) == 20 and t_ns >= start]
    sends = [(t_ns, x) for (t_ns, x), previous in zip(sends, [(0, 0)] + sends) if x != previous[1]]
    events = [frame.t_ns for frame in frames[pad]
              if any(event.startswith("ABS_X ") for event in frame.events)]
    assert len(events) == len(sends), \
        f"{len(sends)} packets moved the finger but the stick moved {len(events)} times: they must pair one to one"
    late = [(s, e) for (s, _x), e in zip(sends, events) if e < s]
    assert not late, f"{len(late)} events came before their packet: the pairing is off ({late[:3]})"
    latencies = [(e - s) / 1e6 for (s, _x), e in zip(sends, events)]
    stalls = [(a[0], b[0]) for a, b in zip(sends, sends[1:]) if b[0] - a[0] > STALL_NS]
    calm = [lat for lat, (s, _x), e in zip(latencies, sends, events)
            if not any(s < stall_end and e > stall_start for stall_start, stall_end in stalls)]

    reader = rig_reader_delays(rig, os.path.join(rig.logs, "vhci-notifications-rig.txt"))
    assert reader, "the rig's reader read none of the timeline's packets"

    packets = len(sends)
    rate = packets / ((sends[-1][0] - sends[0][0]) / 1e9) if packets > 1 else 0
    rig.figure(f"latency over {packets} packets ({rate:.0f}/s), each moving the stick once: {summary(latencies)}")
    rig.figure(f"rig's Python AcquireNotify reader, same timeline, same run: {summary(reader)} ({len(reader)} packets)")
    rig.figure(f"bridge / rig's reader: p50 {statistics.median(latencies) / statistics.median(reader):.2f}x, "
               f"p99 {percentile(sorted(latencies), 0.99) / percentile(sorted(reader), 0.99):.2f}x")
    if calm:
        rig.figure(f"latency without the {len(stalls)} stall window(s) over 50 ms: {summary(calm)} ({len(calm)} events)")
    cpu = cpu_after - cpu_before
    rig.figure(f"bridge CPU: {cpu * 1000 / max(packets, 1):.3f} ms per packet ({cpu:.2f} s for {packets} packets)")
