"""Latency: the emulator's write to /dev/vhci -> the kernel timestamp of the
resulting uinput event, per packet, for a Daydream beside the rig's own Python
AcquireNotify reader on the same timeline in the same run, then for a Gear VR;
and the bridge's CPU per packet for each. Figures, not pass/fail: it fails only
when packets and events do not pair one to one, which would make the figures
meaningless. (The rig's reader measures the Daydream only: a Gear VR streams
only after its start sequence, which that reader does not do.)"""
from __future__ import annotations

import os
import statistics

from bluez import DEVICE, INPUT_UUID, device_path
from bridge_helpers import ensure_paired, gamepad, play_and_read, start_bridge, unpair, wait_streaming
from gear_vr import GEAR, GEAR_ADDRESS, PACKET_SIZE, TOUCH_MAX, gear_vr, start_order
from gear_vr_packet import GearVRPacket
from notify_reader import percentile, read_delays_ms, read_packets, vhci_writes
from packet import Packet
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
# Three 2 s sweeps: about 360 packets from a Daydream (60/s) and 400 from a Gear VR
# (68/s), each moving the stick once, so p99 rests on the few slowest.
SWEEPS, SWEEP_MS = 3, 2000
STALL_NS = 50_000_000
DAYDREAM_TOUCH_MAX = 255


def sweep_timeline(top: int) -> str:
    """The finger swept across the pad and back (raw x 1...top), so that every packet
    moves it: at a Daydream's 60 packets a second a 2 s sweep over raw x 1..255 moves it
    about 2 units a packet (a Gear VR's 68 over 1..315, about 2.3), and each packet gives
    the stick exactly one ABS_X event. (A button toggled every packet does not: since
    tap-time a press lasts at least 120 ms, so events no longer follow packets one to one.)"""
    lines = []
    for index in range(SWEEPS):
        start, end = (1, top) if index % 2 == 0 else (top, 1)
        lines.append(f"at {index * SWEEP_MS}ms touch {start} {top // 2} -> {end} {top // 2} over {SWEEP_MS}ms")
    lines.append(f"at {SWEEPS * SWEEP_MS}ms lift")
    lines.append(f"at {SWEEPS * SWEEP_MS + 100}ms end")
    return "\n".join(lines) + "\n"


DAYDREAM_TIMELINE = sweep_timeline(DAYDREAM_TOUCH_MAX)

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


def measure(rig, name: str, address: str, timeline: str, size: int, touch_x, label: str,
            family_start=None) -> tuple[list[float], float]:
    """The bridge alone with controller `name`, then stopped: the latency (ms) of each
    packet that moved the finger, and the bridge's CPU seconds per packet; prints both,
    and the latencies outside >50 ms stall windows."""
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

    # The timeline's packets, and the finger's position in each.
    sends = [(t_ns, touch_x(data)) for t_ns, data in vhci_writes(log_path) if len(data) == size and t_ns >= start]
    sends = [(t_ns, x) for (t_ns, x), previous in zip(sends, [(0, 0)] + sends) if x != previous[1]]
    events = [frame.t_ns for frame in frames[pad] if any(e.startswith("ABS_X ") for e in frame.events)]

    def ms(t_ns: int) -> float:
        return round((t_ns - start) / 1e6, 1)
    assert len(events) == len(sends), \
        f"{label}: {len(sends)} packets moved the finger but the stick moved {len(events)} times: they must " \
        f"pair one to one (ms after the start: packets {[(ms(t), x) for t, x in sends[:3]]} ... " \
        f"{[(ms(t), x) for t, x in sends[-3:]]}, events {[ms(t) for t in events[:3]]} ... {[ms(t) for t in events[-3:]]})"
    late = [(s, e) for (s, _x), e in zip(sends, events) if e < s]
    assert not late, f"{label}: {len(late)} events came before their packet: the pairing is off ({late[:3]})"
    latencies = [(e - s) / 1e6 for (s, _x), e in zip(sends, events)]
    stalls = [(a[0], b[0]) for a, b in zip(sends, sends[1:]) if b[0] - a[0] > STALL_NS]
    calm = [lat for lat, (s, _x), e in zip(latencies, sends, events)
            if not any(s < stall_end and e > stall_start for stall_start, stall_end in stalls)]

    packets = len(sends)
    rate = packets / ((sends[-1][0] - sends[0][0]) / 1e9) if packets > 1 else 0
    rig.figure(f"{label}: latency over {packets} packets ({rate:.0f}/s), each moving the stick once: "
               f"{summary(latencies)}")
    if calm:
        rig.figure(f"{label}: latency without the {len(stalls)} stall window(s) over 50 ms: {summary(calm)} "
                   f"({len(calm)} events)")
    rig.figure(f"{label}: bridge CPU {cpu * 1000 / max(packets, 1):.3f} ms per packet ({cpu:.2f} s for {packets} packets)")
    return latencies, cpu / max(packets, 1)


def rig_reader_delays(rig, log_path: str) -> list[float]:
    """The Daydream's timeline read by the rig's Python AcquireNotify reader, the bridge stopped."""
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
        length = rig.play(NAME, DAYDREAM_TIMELINE)
        packets = read_packets(fd, mtu, length + 0.5)
        rig.emulator.request("notifications", path=log_path, clear=True)
    finally:
        os.close(fd)
    return read_delays_ms(packets, log_path)


def gear_touch_x(data: bytes) -> int:
    return min(GearVRPacket.decode(data).touch_x, TOUCH_MAX)


@scenario("latency: vhci write -> uinput event for a Daydream beside the rig's reader, then a Gear VR; "
          "the bridge's CPU per packet", needs=("run",))
def latency(rig):
    """The same sweep and config, one controller at a time: p50/p99 (with and without
    >50 ms stall windows)/max and CPU per packet for a Daydream (60 packets/s, one
    sample), as a ratio to the rig's reader, and for a Gear VR (68 packets/s, three
    samples), as a ratio to the Daydream."""
    daydream, daydream_cpu = measure(rig, NAME, ADDRESS, DAYDREAM_TIMELINE, 20,
                                     lambda data: Packet.decode(data).touch_x, "daydream")
    reader = rig_reader_delays(rig, os.path.join(rig.logs, "vhci-notifications-rig.txt"))
    assert reader, "the rig's reader read none of the timeline's packets"
    rig.figure(f"rig's Python AcquireNotify reader, the Daydream's timeline, same run: {summary(reader)} "
               f"({len(reader)} packets)")
    rig.figure(f"bridge / rig's reader: p50 {statistics.median(daydream) / statistics.median(reader):.2f}x, "
               f"p99 {percentile(sorted(daydream), 0.99) / percentile(sorted(reader), 0.99):.2f}x")

    rig.emulator.request("power", name=NAME, on=False)
    gear_vr(rig)
    try:
        gear, gear_cpu = measure(rig, GEAR, GEAR_ADDRESS, sweep_timeline(TOUCH_MAX), PACKET_SIZE, gear_touch_x,
                                 "gear vr", family_start=start_order)
    finally:
        unpair(rig, GEAR, GEAR_ADDRESS)
    rig.figure(f"gear vr / daydream: p50 {statistics.median(gear) / statistics.median(daydream):.2f}x, "
               f"CPU per packet {gear_cpu / daydream_cpu:.2f}x")
