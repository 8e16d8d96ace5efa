"""The Gear VR controller's 60-byte input packet, little endian (layout:
shared design notes, controllers.md): three IMU samples (u32 microseconds,
accelerometer i16 x3, gyroscope i16 x3), the magnetometer, the touch bits,
temperature, buttons, battery.
"""
from __future__ import annotations

import dataclasses
import struct

from timeline import Vocabulary

PACKET_SIZE = 60
SAMPLES = 3

# Byte 58. 0x40 is an idle flag the controller sets, not a button.
BUTTON_BITS = {
    "trigger": 0x01,
    "home": 0x02,
    "back": 0x04,
    "click": 0x08,
    "volume-up": 0x10,
    "volume-down": 0x20,
}
IDLE_FLAG = 0x40

# Bits 5:4 of byte 54.
TOUCHING = 0b01
NOT_TOUCHING = 0b10
JUST_LIFTED = 0b00  # one packet after the finger leaves

TOUCH_MAX = 1023  # x and y are 10 bits wide; the pad reads about 7...314
ACCELEROMETER_COUNTS_PER_G = 2048
GYRO_COUNTS_PER_DEGREE_PER_SECOND = 14.285

# What the emulated controller sends at rest: flat, touchpad up (+Z out of the face).
AT_REST_ACCELERATION = (0, 0, ACCELEROMETER_COUNTS_PER_G)
MAGNETOMETER = (312, -148, 905)
TEMPERATURE = 31

# What a timeline may say to a Gear VR: its buttons, touch counts, i16 IMU counts.
VOCABULARY = Vocabulary(BUTTON_BITS, touch_max=TOUCH_MAX, counts=(-32768, 32767))

_SAMPLE = struct.Struct("<I3h3h")
_TAIL = struct.Struct("<3h3BBBB")  # magnetometer, touch bytes 54-56, temperature, buttons, battery


@dataclasses.dataclass
class Sample:
    time_us: int = 0
    acceleration: tuple[int, int, int] = (0, 0, 0)
    gyro: tuple[int, int, int] = (0, 0, 0)


@dataclasses.dataclass
class GearVRPacket:
    """Raw counts of one packet; encode() gives the 60 bytes."""

    samples: list[Sample] = dataclasses.field(default_factory=lambda: [Sample() for _ in range(SAMPLES)])
    magnetometer: tuple[int, int, int] = (0, 0, 0)
    touch_x: int = 0
    touch_y: int = 0
    touch_state: int = NOT_TOUCHING
    temperature: int = 0
    buttons: int = 0
    idle: bool = False
    battery: int = 0

    def encode(self) -> bytes:
        if len(self.samples) != SAMPLES:
            raise ValueError(f"a packet holds {SAMPLES} samples, not {len(self.samples)}")
        for name, value in (("touch_x", self.touch_x), ("touch_y", self.touch_y)):
            if not 0 <= value <= TOUCH_MAX:
                raise ValueError(f"{name}={value} does not fit 10 bits")
        if self.buttons & ~0x3F:
            raise ValueError(f"buttons {self.buttons:#x} has bits beyond the six buttons")
        data = b"".join(
            _SAMPLE.pack(sample.time_us % (1 << 32), *sample.acceleration, *sample.gyro) for sample in self.samples)
        b54 = (self.touch_state & 0x3) << 4 | (self.touch_x >> 6) & 0x0F
        b55 = (self.touch_x & 0x3F) << 2 | (self.touch_y >> 8) & 0x03
        b56 = self.touch_y & 0xFF
        buttons = self.buttons | (IDLE_FLAG if self.idle else 0)
        data += _TAIL.pack(*self.magnetometer, b54, b55, b56, self.temperature, buttons, self.battery)
        assert len(data) == PACKET_SIZE
        return data

    @classmethod
    def decode(cls, data: bytes) -> "GearVRPacket":
        if len(data) != PACKET_SIZE:
            raise ValueError(f"a Gear VR packet is {PACKET_SIZE} bytes, not {len(data)}")
        samples = []
        for index in range(SAMPLES):
            time_us, ax, ay, az, gx, gy, gz = _SAMPLE.unpack_from(data, index * _SAMPLE.size)
            samples.append(Sample(time_us, (ax, ay, az), (gx, gy, gz)))
        mx, my, mz, b54, b55, b56, temperature, buttons, battery = _TAIL.unpack_from(data, SAMPLES * _SAMPLE.size)
        return cls(
            samples=samples, magnetometer=(mx, my, mz),
            touch_x=(b54 & 0x0F) << 6 | b55 >> 2, touch_y=(b55 & 0x03) << 8 | b56,
            touch_state=(b54 >> 4) & 0x3, temperature=temperature,
            buttons=buttons & ~IDLE_FLAG, idle=bool(buttons & IDLE_FLAG), battery=battery,
        )
