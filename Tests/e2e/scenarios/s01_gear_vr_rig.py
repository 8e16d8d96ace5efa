"""The rig proves its Gear VR controller, without the bridge: discovery by name with
Samsung's manufacturer data (from the scan response), Just Works pairing, the GATT table
through BlueZ, and the start order over real kernel Bluetooth: 0800, the 08 00 echo about
1.5 s later, 0100, then 60-byte packets on the AcquireNotify socket."""
from __future__ import annotations

import os
import time

import dbus

from bluez import CHARACTERISTIC, DEVICE
from gear_vr import DATA_SERVICE, GEAR_NAME, NOTIFY_UUID, PACKET_SIZE
from gear_vr_packet import BUTTON_BITS, TOUCHING, GearVRPacket
from notify_reader import read_packets, vhci_writes
from rig import scenario

NAME, ADDRESS = "gear-rig", "C0:6E:A5:00:00:0A"
WRITE_UUID = "c8c51726-81bc-483b-a052-f7a14ea3d282"
SAMSUNG = 0x0075


def sig(uuid16: str) -> str:
    return f"0000{uuid16}-0000-1000-8000-00805f9b34fb"


def write(bluez, path: str, value: bytes) -> None:
    bluez.call(path, CHARACTERISTIC, "WriteValue", dbus.Array(value, signature="y"),
               dbus.Dictionary({"type": "request"}, signature="sv"))


@scenario("rig: the emulated Gear VR over BlueZ: name, Samsung's data, pairing, GATT, echo, 60-byte stream")
def rig_gear_vr(rig):
    """The emulated Gear VR through real bluetoothd with the rig's own agent."""
    # The agent first: under emulation Python starts slowly, the more so while the emulator
    # is loading the Gear VR's modules.
    agent = rig.rig_agent(timeout=90)
    rig.controller(NAME, ADDRESS, family="gear-vr")
    bluez = rig.bluez
    try:
        device = bluez.discover(ADDRESS, uuids=())
        expected_name = GEAR_NAME.replace("0001", ADDRESS.replace(":", "")[-4:])
        assert str(bluez.get(device, DEVICE, "Name")) == expected_name, bluez.get(device, DEVICE, "Name")
        manufacturer = bluez.wait(lambda: bluez.get_or_none(device, DEVICE, "ManufacturerData"), 10,
                                  "ManufacturerData from the scan response")
        assert SAMSUNG in [int(key) for key in manufacturer], f"manufacturer data {dict(manufacturer)}"
        assert int(bluez.get(device, DEVICE, "Appearance")) == 0x03C0

        mark = rig.emulator.mark()
        bluez.call(device, DEVICE, "Pair")
        bluez.wait_property(device, DEVICE, "Bonded", True)
        rig.emulator.wait_event("paired", NAME, since=mark)
        if not bluez.get(device, DEVICE, "Connected"):
            bluez.call(device, DEVICE, "Connect")
        bluez.wait_property(device, DEVICE, "ServicesResolved", True, timeout=30)
        uuids = [str(u).lower() for u in bluez.get(device, DEVICE, "UUIDs")]
        for uuid in (DATA_SERVICE, sig("1879"), sig("fef5"), sig("180f"), sig("180a")):
            assert uuid in uuids, f"{uuid} not among the services {uuids}"
        strings = {uuid: bluez.read(bluez.characteristic(device, sig(uuid))) for uuid in ("2a29", "2a24")}
        assert strings == {"2a29": b"Samsung", "2a24": b"ET-YO324"}, strings
        assert bluez.read(bluez.characteristic(device, sig("2a19"))) == bytes([87])
        assert bluez.read(bluez.characteristic(device, sig("2a4b"))), "0x1879's report map is empty"

        command = bluez.characteristic(device, WRITE_UUID)
        fd, mtu = bluez.acquire_notify(bluez.characteristic(device, NOTIFY_UUID))
        try:
            assert mtu >= PACKET_SIZE + 3, f"ATT MTU {mtu}: a 60-byte notification does not fit"
            rig.emulator.wait_event("subscribed", NAME, since=mark, on=True)
            written = time.monotonic_ns()
            write(bluez, command, bytes.fromhex("0800"))
            echo = read_packets(fd, mtu, 2.5)
            assert [data for _, data in echo] == [bytes.fromhex("0800")], f"after 0800: {[d.hex() for _, d in echo]}"
            delay = (echo[0][0] - written) / 1e9
            assert 1.3 <= delay <= 2.5, f"the 08 00 echo came {delay:.2f} s after 0800"
            rig.figure(f"rig: gear vr 08 00 echo {delay:.2f} s after 0800")
            write(bluez, command, bytes.fromhex("0100"))
            rig.emulator.wait_event("stream", NAME, since=mark, on=True)
            read_packets(fd, mtu, 0.3)
            length = rig.play(NAME, "at 0ms touch 300 40\nat 200ms press trigger back\nat 400ms release trigger back\n"
                                    "at 500ms lift\nat 700ms end\n")
            packets = read_packets(fd, mtu, length + 0.5)
            log_path = os.path.join(rig.logs, "vhci-gear-rig.txt")
            rig.emulator.request("notifications", path=log_path, clear=True)
            write(bluez, command, bytes.fromhex("0000"))
            stopped = rig.emulator.wait_event("stream", NAME, since=mark, on=False)["t_ns"]
            read_packets(fd, mtu, 0.5)
            rig.emulator.request("notifications", path=log_path, clear=True)
        finally:
            os.close(fd)
        assert packets and all(len(data) == PACKET_SIZE for _, data in packets), \
            f"notifications of {sorted({len(d) for _, d in packets})} bytes"
        decoded = [GearVRPacket.decode(data) for _, data in packets]
        assert any(p.touch_state == TOUCHING and (p.touch_x, p.touch_y) == (300, 40) for p in decoded), "touch missing"
        pressed = BUTTON_BITS["trigger"] | BUTTON_BITS["back"]
        assert any(p.buttons == pressed for p in decoded), "trigger and back never seen"
        late = [t for t, data in vhci_writes(log_path) if t > stopped and len(data) == PACKET_SIZE]
        # One may be on its way already (its notification awaited when 0000 came): no more.
        assert len(late) <= 1, f"{len(late)} packets written to /dev/vhci after the emulator took 0000"
        rate = len(packets) / ((packets[-1][0] - packets[0][0]) / 1e9)
        rig.figure(f"rig: gear vr stream over AcquireNotify {rate:.0f} packets/s, {len(packets)} packets of 60 bytes")
    finally:
        agent.stop()
        from bridge_helpers import unpair
        unpair(rig, NAME, ADDRESS)
