"""The Daydream controller's 20-byte input packet (layout: protocol.md).

The packet is a big-endian bit string: bit 0 is the most significant bit of
byte 0. Signed fields are 13-bit two's complement.
"""
from __future__ import annotations

import dataclasses

PACKET_SIZE = 20

BUTTON_BITS = {
    "click": 0x01,
    "home": 0x02,
    "app": 0x04,
    "volume-down": 0x08,
    "volume-up": 0x10,
}

# (name, first bit, width, signed), in packet order.
_FIELDS = (
    ("time", 0, 9, False),
    ("seq", 9, 5, False),
    ("ori_x", 14, 13, True), ("ori_y", 27, 13, True), ("ori_z", 40, 13, True),
    ("acc_x", 53, 13, True), ("acc_y", 66, 13, True), ("acc_z", 79, 13, True),
    ("gyro_x", 92, 13, True), ("gyro_y", 105, 13, True), ("gyro_z", 118, 13, True),
    ("touch_x", 131, 8, False),
    ("touch_y", 139, 8, False),
    ("buttons", 147, 5, False),
    ("status", 152, 8, False),
)


@dataclasses.dataclass
class Packet:
    """Raw counts of one packet; encode() gives the 20 bytes."""

    time: int = 0
    seq: int = 0
    ori_x: int = 0
    ori_y: int = 0
    ori_z: int = 0
    acc_x: int = 0
    acc_y: int = 0
    acc_z: int = 0
    gyro_x: int = 0
    gyro_y: int = 0
    gyro_z: int = 0
    touch_x: int = 0
    touch_y: int = 0
    buttons: int = 0
    status: int = 0

    def encode(self) -> bytes:
        value = 0
        for name, start, width, signed in _FIELDS:
            field = getattr(self, name)
            if name in ("time", "seq"):
                field %= 1 << width  # counters wrap
            elif signed and not -(1 << (width - 1)) <= field < (1 << (width - 1)):
                raise ValueError(f"{name}={field} does not fit {width} signed bits")
            elif not signed and not 0 <= field < (1 << width):
                raise ValueError(f"{name}={field} does not fit {width} bits")
            field &= (1 << width) - 1
            value |= field << (PACKET_SIZE * 8 - start - width)
        return value.to_bytes(PACKET_SIZE, "big")

    @classmethod
    def decode(cls, data: bytes) -> "Packet":
        if len(data) != PACKET_SIZE:
            raise ValueError(f"a packet is {PACKET_SIZE} bytes, not {len(data)}")
        value = int.from_bytes(data, "big")
        fields = {}
        for name, start, width, signed in _FIELDS:
            field = (value >> (PACKET_SIZE * 8 - start - width)) & ((1 << width) - 1)
            if signed and field >= 1 << (width - 1):
                field -= 1 << width
            fields[name] = field
        return cls(**fields)
