"""A DSU ("cemuhook") client written here from the protocol description (Python's zlib for
the CRC32, nothing shared with the bridge): the requests, the server's framing, and one client
on a UDP socket of its own."""
from __future__ import annotations

import socket
import struct
import time
import zlib

DSU_PORT = 26760
VERSION, INFO, DATA = 0x100000, 0x100001, 0x100002
CLIENT_ID = 0x0E2E0E2E
# Dolphin asks again every second. Until a client's requests have kept coming for a second, the
# bridge sends it no more bytes than it sent (a forged source address draws nothing), then every
# packet (doc/dsu.md).
RENEW_INTERVAL = 1.0
ALL_SLOTS = bytes([0, 0]) + bytes(6)


def request(kind: int, body: bytes = b"") -> bytes:
    """A client message: magic, version 1001, length after the header, CRC32 over the whole
    message with its CRC field zero, the client's id; then the message type and body."""
    payload = struct.pack("<I", kind) + body
    header = b"DSUC" + struct.pack("<HHII", 1001, len(payload), 0, CLIENT_ID)
    crc = zlib.crc32(header + payload) & 0xFFFFFFFF
    return header[:8] + struct.pack("<I", crc) + header[12:] + payload


def parse(datagram: bytes) -> tuple[int, bytes]:
    """A server message's type and body, after checking its header and CRC32."""
    assert len(datagram) >= 20 and datagram[:4] == b"DSUS", f"not a server message: {datagram.hex()}"
    version, length, crc = struct.unpack_from("<HHI", datagram, 4)
    assert version == 1001, f"protocol version {version}"
    assert length == len(datagram) - 16, f"length field {length} for {len(datagram)} bytes"
    zeroed = datagram[:8] + b"\0\0\0\0" + datagram[12:]
    assert zlib.crc32(zeroed) & 0xFFFFFFFF == crc, f"bad CRC32 in {datagram.hex()}"
    (kind,) = struct.unpack_from("<I", datagram, 16)
    return kind, datagram[20:]


class Client:
    """One DSU client on a UDP socket of its own."""

    def __init__(self, port: int = DSU_PORT) -> None:
        self.port = port
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.settimeout(0.2)
        self.subscribed_at: float | None = None

    def subscribe_all(self) -> None:
        """Asks for every slot's data; `renew_if_due` asks again each second, as Dolphin does."""
        self.send(DATA, ALL_SLOTS)
        self.subscribed_at = time.monotonic()

    def renew_if_due(self) -> None:
        """Renews the subscription once a second has passed since the last request."""
        if self.subscribed_at is not None and time.monotonic() - self.subscribed_at >= RENEW_INTERVAL:
            self.subscribe_all()

    def send(self, kind: int, body: bytes = b"") -> None:
        self.socket.sendto(request(kind, body), ("127.0.0.1", self.port))

    def receive(self, kind: int, timeout: float = 5.0) -> bytes | None:
        """The body of the next message of `kind` (others are skipped), or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                datagram = self.socket.recv(2048)
            except socket.timeout:
                continue
            got, body = parse(datagram)
            if got == kind:
                return body
        return None

    def slot_info(self, timeout: float = 0.25) -> tuple[int, bytes] | None:
        """Slot 0's state and MAC from a controller-info request, or None without an answer within
        `timeout`; the subscription is renewed first when due. Until a client's requests have run
        for a second (again after 4 s without one) the bridge answers it only within the bytes it
        sent, so callers ask again (`wait_until`) rather than once."""
        self.renew_if_due()
        self.send(INFO, struct.pack("<i", 1) + bytes([0]))
        body = self.receive(INFO, timeout=timeout)
        if body is None:
            return None
        assert len(body) == 12 and body[0] == 0, f"controller info for slot 0: {body!r}"
        return body[1], body[4:10]

    def close(self) -> None:
        self.socket.close()
