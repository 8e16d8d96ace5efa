"""The Gear VR controller's GATT table (controllers.md), as Bumble services.

GAP (GATT, 0x1801, is Bumble's own); Battery (0x180F, read and notify); Device Information
("Samsung", "ET-YO324", a firmware revision); 0x1879, a HID-over-GATT
layout under a non-standard UUID whose reads need encryption; the data
service (notify ...d281, write ...d282); and 0xFEF5, the firmware-update
service, whose every write is reported (a bridge must never write to it).
The data service's characteristics need an encrypted link too.
"""
from __future__ import annotations

import struct
from typing import Callable

from bumble.att import Attribute
from bumble.gatt import (
    GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR,
    Characteristic,
    CharacteristicValue,
    Descriptor,
    Service,
)

from gatt_table import FIRMWARE_UPDATE_CHARACTERISTICS, _properties
from gear_vr_packet import PACKET_SIZE

DATA_SERVICE_UUID = "4F63756C-7573-2054-6872-65656D6F7465"  # "Oculus Threemote"
NOTIFY_UUID = "C8C51726-81BC-483B-A052-F7A14EA3D281"
WRITE_UUID = "C8C51726-81BC-483B-A052-F7A14EA3D282"
HID_LIKE_SERVICE_UUID = "1879"
FIRMWARE_SERVICE_UUID = "FEF5"

MANUFACTURER = b"Samsung"
MODEL = b"ET-YO324"
FIRMWARE_REVISION = b"R324XXU0ARG1"

P = Characteristic.Properties
READ = Attribute.READABLE
WRITE = Attribute.WRITEABLE
ENCRYPTED_READ = READ | Attribute.READ_REQUIRES_ENCRYPTION
ENCRYPTED_WRITE = WRITE | Attribute.WRITE_REQUIRES_ENCRYPTION

# A small report map (one vendor-defined input report): what matters to the
# rig is that the service exists, is not 0x1812, and needs encryption.
REPORT_MAP = bytes([
    0x06, 0x00, 0xFF, 0x09, 0x01, 0xA1, 0x01, 0x85, 0x01,  # vendor page, usage 1, collection, report 1
    0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08, 0x95, 0x3C, 0x09, 0x01, 0x81, 0x02,  # 60 bytes in
    0xC0,
])


class GearVRGattTable:
    """Builds the services and keeps the characteristics the emulator drives."""

    def __init__(
        self,
        name: str,
        serial: str,
        battery_level: Callable[[], int],
        on_command: Callable[[object, bytes], None],
        on_firmware_write: Callable[[object, str, bytes], None],
    ) -> None:
        self.gap = Service("1800", [
            Characteristic("2A00", P.READ, READ, name.encode()),
            Characteristic("2A01", P.READ, READ, struct.pack("<H", 0x03C0)),  # generic HID
            # Preferred connection parameters: 13.75 ms interval (11 units of 1.25 ms), latency 0, 2 s.
            Characteristic("2A04", P.READ, READ, struct.pack("<HHHH", 11, 11, 0, 200)),
        ])
        self.battery_level = Characteristic(
            "2A19", P.READ | P.NOTIFY, READ,
            CharacteristicValue(read=lambda _connection: bytes([battery_level()])),
        )
        self.battery = Service("180F", [self.battery_level])
        self.device_information = Service("180A", [
            Characteristic("2A29", P.READ, READ, MANUFACTURER),
            Characteristic("2A24", P.READ, READ, MODEL),
            Characteristic("2A25", P.READ, READ, serial.encode()),
            Characteristic("2A26", P.READ, READ, FIRMWARE_REVISION),
        ])
        report = Characteristic("2A4D", P.READ | P.NOTIFY, ENCRYPTED_READ, bytes(60),
                                descriptors=[Descriptor("2908", ENCRYPTED_READ, bytes([1, 1]))])
        self.hid_like = Service(HID_LIKE_SERVICE_UUID, [
            Characteristic("2A4A", P.READ, ENCRYPTED_READ, struct.pack("<HBB", 0x0111, 0, 0x02)),
            Characteristic("2A4B", P.READ, ENCRYPTED_READ, REPORT_MAP),
            Characteristic("2A4E", P.READ | P.WRITE_WITHOUT_RESPONSE, ENCRYPTED_READ | ENCRYPTED_WRITE, bytes([1])),
            report,
        ])
        self.input = Characteristic(NOTIFY_UUID, P.NOTIFY, ENCRYPTED_READ, bytes(PACKET_SIZE))
        self.command = Characteristic(
            WRITE_UUID, P.WRITE | P.WRITE_WITHOUT_RESPONSE, ENCRYPTED_WRITE,
            CharacteristicValue(write=lambda connection, value: on_command(connection, bytes(value))),
        )
        self.data = Service(DATA_SERVICE_UUID, [self.input, self.command])

        firmware = []
        for uuid, properties in FIRMWARE_UPDATE_CHARACTERISTICS:
            def write(connection, value, uuid=uuid):
                on_firmware_write(connection, uuid, bytes(value))
            firmware.append(Characteristic(
                uuid, _properties(properties), READ | WRITE,
                CharacteristicValue(read=lambda _connection: bytes(4), write=write),
            ))
        self.firmware_update = Service(FIRMWARE_SERVICE_UUID, firmware)

    @property
    def services(self) -> list[Service]:
        return [self.gap, self.battery, self.device_information, self.hid_like, self.data,
                self.firmware_update]

    def require_encryption_to_subscribe(self, attributes) -> None:
        """The server adds a CCCD with open permissions; make the input's
        CCCD need an encrypted link, like the rest of the data service."""
        for index, attribute in enumerate(attributes):
            if attribute is self.input:
                for descriptor in attributes[index + 1:]:
                    if descriptor.type == GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR:
                        descriptor.permissions = READ | ENCRYPTED_WRITE
                        return
        raise RuntimeError("no CCCD after the input characteristic")

