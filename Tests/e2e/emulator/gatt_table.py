"""The Daydream View controller's GATT table (protocol.md), as Bumble services.

FE55 characteristics need an encrypted link, as current firmware sends no
input before the link is bonded. FEF5 is the firmware-update service: the
emulator offers it and reports any write to it (a bridge must never write).
"""
from __future__ import annotations

import struct
from typing import Callable

from bumble.att import Attribute
from bumble.gatt import (
    GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR,
    Characteristic,
    CharacteristicValue,
    Service,
)

INPUT_UUID = "00000001-1000-1000-8000-00805F9B34FB"
COMMAND_UUID = "00000002-1000-1000-8000-00805F9B34FB"
VOLTAGE_UUID = "00000003-1000-1000-8000-00805F9B34FB"

# Dialog Semiconductor's SUOTA characteristics, the FEF5 service's six.
FIRMWARE_UPDATE_CHARACTERISTICS = (
    ("8082CAA8-41A6-4021-91C6-56F9B954CC34", "read,write"),  # memory device
    ("724249F0-5EC3-4B5F-8804-42345AF08651", "read,write"),  # GPIO map
    ("6C53DB25-47A1-45FE-A022-7C92FB334FD4", "read"),  # memory info
    ("9D84B9A3-000C-49D8-9183-855B673FDA31", "read,write"),  # patch length
    ("457871E8-D516-4CA1-9116-57D0B17B9CB2", "read,write,write-without-response"),  # patch data
    ("5F78DF94-798C-46F5-990A-B3EB6A065C88", "read,notify"),  # status
)

P = Characteristic.Properties
READ = Attribute.READABLE
WRITE = Attribute.WRITEABLE
ENCRYPTED_READ = READ | Attribute.READ_REQUIRES_ENCRYPTION
ENCRYPTED_WRITE = WRITE | Attribute.WRITE_REQUIRES_ENCRYPTION


def _properties(text: str) -> int:
    names = {"read": P.READ, "write": P.WRITE, "write-without-response": P.WRITE_WITHOUT_RESPONSE,
             "notify": P.NOTIFY}
    value = 0
    for name in text.split(","):
        value |= names[name]
    return P(value)


class GattTable:
    """Builds the services and keeps the characteristics the emulator drives."""

    def __init__(
        self,
        name: str,
        serial: str,
        battery_level: Callable[[], int],
        battery_millivolts: Callable[[], int],
        on_command: Callable[[object, bytes], None],
        on_firmware_write: Callable[[object, str, bytes], None],
    ) -> None:
        self.gap = Service("1800", [
            Characteristic("2A00", P.READ, READ, name.encode()),
            # Appearance: generic Human Interface Device (the real value is not on record).
            Characteristic("2A01", P.READ, READ, struct.pack("<H", 0x03C0)),
            # Preferred connection parameters: 7.5-15 ms interval, latency 0, 2 s supervision.
            Characteristic("2A04", P.READ, READ, struct.pack("<HHHH", 6, 12, 0, 200)),
        ])
        self.battery_level = Characteristic(
            "2A19", P.READ | P.NOTIFY, READ,
            CharacteristicValue(read=lambda _connection: bytes([battery_level()])),
        )
        self.battery = Service("180F", [self.battery_level])
        self.device_information = Service("180A", [
            Characteristic("2A29", P.READ, READ, b"Google Inc."),
            Characteristic("2A24", P.READ, READ, b"Daydream controller"),
            Characteristic("2A25", P.READ, READ, serial.encode()),
            Characteristic("2A27", P.READ, READ, b"0005.0003"),
            Characteristic("2A26", P.READ, READ, b"1.3.5"),
            Characteristic("2A28", P.READ, READ, b"825769af"),
            # PnP ID: Bluetooth SIG vendor source, Google (0x00E0), product, version.
            Characteristic("2A50", P.READ, READ, struct.pack("<BHHH", 1, 0x00E0, 0x0001, 0x0105)),
        ])
        self.input = Characteristic(INPUT_UUID, P.NOTIFY, ENCRYPTED_READ, bytes(20))
        self.command = Characteristic(
            COMMAND_UUID, P.WRITE, ENCRYPTED_WRITE,
            CharacteristicValue(write=lambda connection, value: on_command(connection, bytes(value))),
        )
        self.voltage = Characteristic(
            VOLTAGE_UUID, P.READ, ENCRYPTED_READ,
            CharacteristicValue(read=lambda _connection: struct.pack("<H", battery_millivolts())),
        )
        self.daydream = Service("FE55", [self.input, self.command, self.voltage])

        firmware = []
        for uuid, properties in FIRMWARE_UPDATE_CHARACTERISTICS:
            def write(connection, value, uuid=uuid):
                on_firmware_write(connection, uuid, bytes(value))
            firmware.append(Characteristic(
                uuid, _properties(properties), READ | WRITE,
                CharacteristicValue(read=lambda _connection: bytes(4), write=write),
            ))
        self.firmware_update = Service("FEF5", firmware)

    @property
    def services(self) -> list[Service]:
        return [self.gap, self.battery, self.device_information, self.daydream, self.firmware_update]

    def require_encryption_to_subscribe(self, attributes) -> None:
        """The server adds a CCCD with open permissions; make the input's
        CCCD need an encrypted link, like the rest of FE55."""
        for index, attribute in enumerate(attributes):
            if attribute is self.input:
                for descriptor in attributes[index + 1:]:
                    if descriptor.type == GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR:
                        descriptor.permissions = READ | ENCRYPTED_WRITE
                        return
        raise RuntimeError("no CCCD after the input characteristic")
