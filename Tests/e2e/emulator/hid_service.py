"""A HID-over-GATT keyboard service (0x1812), for the Daydream look-alike:
something that advertises as a Daydream controller but, once bonded,
would get a keyboard from bluetoothd's input plugin. The bridge must
refuse it and remove it. Reports need an encrypted link, as on a real
keyboard."""
from __future__ import annotations

import struct

from bumble.att import Attribute
from bumble.gatt import Characteristic, Descriptor, Service

# A boot keyboard: modifiers, a reserved byte, six key codes.
KEYBOARD_REPORT_MAP = bytes([
    0x05, 0x01, 0x09, 0x06, 0xA1, 0x01, 0x85, 0x01,  # Generic Desktop, Keyboard, collection, report 1
    0x05, 0x07, 0x19, 0xE0, 0x29, 0xE7, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x08, 0x81, 0x02,
    0x95, 0x01, 0x75, 0x08, 0x81, 0x01,
    0x95, 0x06, 0x75, 0x08, 0x15, 0x00, 0x25, 0x65, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00,
    0xC0,
])

P = Characteristic.Properties
ENCRYPTED_READ = Attribute.READABLE | Attribute.READ_REQUIRES_ENCRYPTION
ENCRYPTED_WRITE = Attribute.WRITEABLE | Attribute.WRITE_REQUIRES_ENCRYPTION


def keyboard_service() -> Service:
    # Report Reference descriptor: report ID 1, input report.
    report = Characteristic("2A4D", P.READ | P.NOTIFY, ENCRYPTED_READ, bytes(8),
                            descriptors=[Descriptor("2908", ENCRYPTED_READ, bytes([1, 1]))])
    return Service("1812", [
        Characteristic("2A4A", P.READ, ENCRYPTED_READ, struct.pack("<HBB", 0x0111, 0, 0x02)),  # HID Information
        Characteristic("2A4B", P.READ, ENCRYPTED_READ, KEYBOARD_REPORT_MAP),
        Characteristic("2A4C", P.WRITE_WITHOUT_RESPONSE, ENCRYPTED_WRITE, bytes(1)),  # control point
        Characteristic("2A4E", P.READ | P.WRITE_WITHOUT_RESPONSE, ENCRYPTED_READ | ENCRYPTED_WRITE, bytes([1])),
        report,
    ])
