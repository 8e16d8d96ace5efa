"""An HCI transport over /dev/vhci that timestamps what it hands the kernel.

Bumble's own vhci transport goes through asyncio pipes; this one reads and
writes the device directly so the time logged for a packet is the time of
its write(): the moment the kernel receives it (CLOCK_MONOTONIC, ns).
"""
from __future__ import annotations

import asyncio
import os
import time

from bumble.transport.common import PacketParser

HCI_VENDOR_PACKET = 0xFF
HCI_ACL_PACKET = 0x02
HCI_PRIMARY_CONTROLLER = 0x00
ATT_CID = 0x0004
ATT_HANDLE_VALUE_NOTIFICATION = 0x1B


class VhciTransport:
    """Packet source and sink for a Bumble Controller attached to the guest kernel.

    `notification_log` collects (monotonic ns at write, ACL handle, ATT handle,
    value) for every ATT notification written to the kernel.
    """

    def __init__(self, path: str = "/dev/vhci") -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        self.parser = PacketParser()
        self.notification_log: list[tuple[int, int, int, bytes]] = []
        self.hci_index: int | None = None
        self.closed = False
        loop = asyncio.get_running_loop()
        loop.add_reader(self.fd, self._readable)
        # Ask for a primary (BR/EDR/LE) controller.
        os.write(self.fd, bytes([HCI_VENDOR_PACKET, HCI_PRIMARY_CONTROLLER]))

    # Source side: packets from the kernel to the controller.
    def set_packet_sink(self, sink) -> None:
        self.parser.set_packet_sink(sink)

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, 4096)
        except BlockingIOError:
            return
        if not data:
            return
        if data[0] == HCI_VENDOR_PACKET:
            if len(data) == 4:
                self.hci_index = data[2] << 8 | data[3]
            return
        self.parser.feed_data(data)

    # Sink side: packets from the controller to the kernel.
    def on_packet(self, packet: bytes) -> None:
        if self.closed:
            return
        now = time.monotonic_ns()
        os.write(self.fd, packet)
        if packet[0] == HCI_ACL_PACKET and len(packet) >= 12:
            cid = packet[7] | packet[8] << 8
            if cid == ATT_CID and packet[9] == ATT_HANDLE_VALUE_NOTIFICATION:
                acl_handle = (packet[1] | packet[2] << 8) & 0x0FFF
                att_handle = packet[10] | packet[11] << 8
                self.notification_log.append((now, acl_handle, att_handle, bytes(packet[12:])))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            asyncio.get_running_loop().remove_reader(self.fd)
            os.close(self.fd)
