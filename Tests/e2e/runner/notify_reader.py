"""The rig's own reader of the controller's input, without the bridge: AcquireNotify through
BlueZ and a plain read loop. Its delay from the emulator's /dev/vhci write to its read is the
floor any reader in the guest is measured against."""
from __future__ import annotations

import os
import select
import time


def read_packets(fd: int, mtu: int, seconds: float) -> list[tuple[int, bytes]]:
    """Every notification read from an AcquireNotify socket within `seconds`, with the
    CLOCK_MONOTONIC time (ns) it was read."""
    packets = []
    deadline = time.monotonic() + seconds
    while (remaining := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([fd], [], [], remaining)
        if readable:
            try:
                data = os.read(fd, mtu)
            except BlockingIOError:
                continue
            packets.append((time.monotonic_ns(), data))
    return packets


def vhci_writes(log_path: str) -> list[tuple[int, bytes]]:
    """The emulator's notification log: (its /dev/vhci write time in ns, the packet), in order."""
    writes = []
    with open(log_path) as file:
        for line in file:
            t_ns, _acl, _att, value = line.split()
            writes.append((int(t_ns), bytes.fromhex(value)))
    return writes


def read_delays_ms(packets: list[tuple[int, bytes]], log_path: str) -> list[float]:
    """Each read packet's delay from its write to /dev/vhci (packets are unique by their
    sequence number and contents within a run), sorted."""
    written: dict[bytes, int] = {}
    for t_ns, data in vhci_writes(log_path):
        written.setdefault(data, t_ns)
    return sorted((t - written[data]) / 1e6 for t, data in packets if data in written)


def percentile(ordered: list[float], fraction: float) -> float:
    """The value at `fraction` of a sorted list (nearest rank)."""
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]
