"""Host-side self-test of the emulated Gear VR controller, no VM and no kernel
Bluetooth: a Bumble central on the same emulated link finds it by its name
and Samsung's manufacturer data, reads its GATT table, is refused before
pairing, pairs, and checks every behaviour the bridge relies on: the early
`0100` (one echo, silence), `0800`'s echo about 1.5 s later, the stream
(60 bytes, three samples, about 68 packets a second), the keep-alive, `0000`,
HOME held erasing the bond, and the idle disconnect. Exits 0 on success;
prints what failed otherwise.
"""
from __future__ import annotations

import asyncio
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bumble_fixes  # noqa: E402
from bumble import hci  # noqa: E402
from bumble.core import UUID  # noqa: E402
from bumble.device import Device, DeviceConfiguration, Peer  # noqa: E402
from bumble.keys import MemoryKeyStore  # noqa: E402
from bumble.pairing import PairingConfig, PairingDelegate  # noqa: E402

from gatt_table import FIRMWARE_UPDATE_CHARACTERISTICS  # noqa: E402
from gear_vr_device import SAMSUNG, EmulatedGearVR  # noqa: E402
from gear_vr_gatt import DATA_SERVICE_UUID, NOTIFY_UUID, WRITE_UUID  # noqa: E402
from gear_vr_packet import BUTTON_BITS, JUST_LIFTED, NOT_TOUCHING, PACKET_SIZE, TOUCHING, GearVRPacket  # noqa: E402

ADDRESS = "C0:6E:A5:00:00:01"
ECHO_DELAY = 1.5


def check(condition, message):
    if not condition:
        raise AssertionError(message)


async def central_on(link) -> Device:
    controller = bumble_fixes.RigController("central", link=link, public_address="00:E2:E0:00:00:09")
    config = DeviceConfiguration(name="central", address=hci.Address("F0:00:00:00:00:09"))
    central = Device.from_config_with_hci(config, controller, controller)
    central.keystore = MemoryKeyStore()
    central.pairing_config_factory = lambda _c: PairingConfig(
        sc=True, mitm=False, bonding=True,
        delegate=PairingDelegate(io_capability=PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT))
    await central.power_on()
    return central


async def find(central) -> tuple[object, str]:
    """The advertiser's address and name, once both the name and Samsung's data were seen."""
    seen = {}
    found = asyncio.get_running_loop().create_future()

    def on_advertisement(advertisement):
        data = advertisement.data
        entry = seen.setdefault(str(advertisement.address), {})
        name = data.get(data.COMPLETE_LOCAL_NAME)
        if name:
            entry["name"] = name
        for company, _payload in data.get_all(data.MANUFACTURER_SPECIFIC_DATA) or []:
            entry["company"] = company
        if not found.done() and entry.get("name", "").startswith("Gear VR Controller(") and entry.get("company") == SAMSUNG:
            found.set_result((advertisement.address, entry["name"]))

    central.on("advertisement", on_advertisement)
    await central.start_scanning(active=True, filter_duplicates=False)
    try:
        return await asyncio.wait_for(found, 5)
    except asyncio.TimeoutError:
        raise AssertionError(f"no Gear VR advertising with a name and Samsung's data: {seen}") from None
    finally:
        await central.stop_scanning()


async def connect(central, address):
    connection = await asyncio.wait_for(central.connect(address, own_address_type=hci.OwnAddressType.PUBLIC), 5)
    peer = Peer(connection)
    await peer.request_mtu(247)  # a packet is 60 bytes: BlueZ asks for 517
    await peer.discover_all()
    return connection, peer


def characteristic(peer, uuid):
    [found] = peer.get_characteristics_by_uuid(UUID(uuid))
    return found


async def quiet_for(received, seconds: float) -> None:
    count = len(received)
    await asyncio.sleep(seconds)
    check(len(received) == count, f"{len(received) - count} notifications where silence was due: {received[count:]}")


async def main() -> None:
    bumble_fixes.apply()
    bumble_fixes.quiet_hot_paths()
    link = bumble_fixes.LocalLink()
    events = []
    gear = EmulatedGearVR("g", ADDRESS, link, report=lambda event, **fields: events.append((event, fields)),
                          echo_delay=ECHO_DELAY)
    await gear.start()
    central = await central_on(link)

    address, name = await find(central)
    check(name == "Gear VR Controller(0001)", f"advertised name {name!r}")
    connection, peer = await connect(central, address)
    services = {str(service.uuid).upper() for service in peer.services}
    for uuid in ("1800", "1801", "180F", "180A", "1879", DATA_SERVICE_UUID, "FEF5"):
        check(any(uuid.upper() in s for s in services), f"service {uuid} missing from {services}")
    for uuid, expected in (("2A29", b"Samsung"), ("2A24", b"ET-YO324")):
        value = bytes(await characteristic(peer, uuid).read_value())
        check(value == expected, f"{uuid} reads {value!r}, expected {expected!r}")
    check(await characteristic(peer, "2A26").read_value(), "no firmware revision")

    # Unpaired: the HID-like service's reads and the data service are refused.
    for what, attempt in (("read the 0x1879 report map", characteristic(peer, "2A4B").read_value()),
                          ("subscribe to the input", characteristic(peer, NOTIFY_UUID).subscribe(lambda _v: None))):
        try:
            await attempt
            refused = False
        except Exception:
            refused = True
        check(refused, f"could {what} without encryption")

    await asyncio.wait_for(connection.pair(), 10)
    received: list[tuple[float, bytes]] = []
    notify = characteristic(peer, NOTIFY_UUID)
    command = characteristic(peer, WRITE_UUID)
    await notify.subscribe(lambda value: received.append((time.monotonic(), bytes(value))))

    # 0100 before the VR-mode echo: one 01 00 echo, then silence.
    await command.write_value(bytes.fromhex("0100"), with_response=True)
    await asyncio.sleep(0.3)
    check([v for _, v in received] == [bytes.fromhex("0100")], f"after an early 0100: {received}")
    await quiet_for(received, 0.5)
    check(("early_start", {"handshake": "jammed"}) in events, f"no early_start event: {events[-5:]}")

    # 0800: the echo about ECHO_DELAY later; 0100 then starts the stream.
    received.clear()
    written = time.monotonic()
    await command.write_value(bytes.fromhex("0800"), with_response=True)
    while not received and time.monotonic() - written < ECHO_DELAY + 2:
        await asyncio.sleep(0.02)
    check(received and received[0][1] == bytes.fromhex("0800"), f"no 08 00 echo: {received}")
    delay = received[0][0] - written
    check(ECHO_DELAY - 0.1 <= delay <= ECHO_DELAY + 0.5, f"the echo came {delay:.2f} s after 0800")
    received.clear()
    await command.write_value(bytes.fromhex("0100"), with_response=True)
    await asyncio.sleep(1.3)
    check(all(len(v) == PACKET_SIZE for _, v in received), f"a notification that is no packet: "
          f"{[v.hex() for _, v in received if len(v) != PACKET_SIZE]}")
    check(len(received) >= 20, f"{len(received)} packets in 1.3 s")
    rate = (len(received) - 1) / (received[-1][0] - received[0][0])  # the wall's: a loaded host slips
    packets = [GearVRPacket.decode(v) for _, v in received]
    times = [sample.time_us for packet in packets for sample in packet.samples]
    steps = [b - a for a, b in zip(times, times[1:])]
    check(all(step > 0 for step in steps), f"sample times not increasing: {steps[:12]}")
    median_step = sorted(steps)[len(steps) // 2]
    check(abs(median_step - 1e6 / (68 * 3)) <= 2, f"samples {median_step} us apart, expected 68 x 3 a second")
    check(packets[0].magnetometer == (0, 0, 0) and packets[-1].magnetometer != (0, 0, 0),
          f"magnetometer {packets[0].magnetometer} -> {packets[-1].magnetometer}: zero for a second, then not")
    check(all(p.samples[0].acceleration == (0, 0, 2048) for p in packets), "not at rest (0, 0, 2048)")
    check(packets[0].idle and packets[0].touch_state == NOT_TOUCHING and packets[0].battery == gear.battery,
          f"the idle packet: {packets[0]}")

    # A timeline: touch, trigger and back, then the lift's one 00 packet.
    received.clear()
    gear.play(gear.parse_timeline("at 0ms touch 300 200\nat 100ms press trigger back\nat 300ms release trigger back\n"
                                  "at 300ms lift\nat 400ms end", "t"), "t")
    await asyncio.sleep(0.6)
    packets = [GearVRPacket.decode(v) for _, v in received]
    check(any(p.touch_state == TOUCHING and (p.touch_x, p.touch_y) == (300, 200) and not p.idle for p in packets),
          "no packet with the touch at (300, 200)")
    pressed = BUTTON_BITS["trigger"] | BUTTON_BITS["back"]
    check(any(p.buttons == pressed for p in packets), "no packet with trigger and back")
    states = [p.touch_state for p in packets]
    lift = states.index(JUST_LIFTED) if JUST_LIFTED in states else -1
    check(lift > 0 and states[lift - 1] == TOUCHING and states[lift + 1] == NOT_TOUCHING,
          f"touch states around the lift: {states}")

    # The keep-alive: no echo, the stream goes on; 0000 stops it.
    received.clear()
    await command.write_value(bytes.fromhex("0400"), with_response=True)
    await asyncio.sleep(0.3)
    check(received and all(len(v) == PACKET_SIZE for _, v in received), "the keep-alive disturbed the stream")
    await command.write_value(bytes.fromhex("0000"), with_response=True)
    await asyncio.sleep(0.1)
    received.clear()
    await quiet_for(received, 0.4)

    # A write to the firmware-update service is reported.
    firmware = characteristic(peer, FIRMWARE_UPDATE_CHARACTERISTICS[0][0])
    await firmware.write_value(bytes([1, 0, 0, 0]), with_response=True)
    check(gear.firmware_writes == 1 and any(e == "firmware_write" for e, _ in events), "firmware write not reported")

    # HOME held: the bond is gone and the link dropped.
    gear.home_erase_s = 0.5
    disconnected = asyncio.get_running_loop().create_future()
    connection.on("disconnection", lambda reason: disconnected.done() or disconnected.set_result(reason))
    gear.play(gear.parse_timeline("at 0ms press home\nat 900ms release home\nat 1s end", "home"), "home")
    reason = await asyncio.wait_for(disconnected, 3)
    check(reason == hci.HCI_REMOTE_USER_TERMINATED_CONNECTION_ERROR, f"disconnect reason {reason:#x} after HOME held")
    check(not await gear.device.keystore.get_all(), "a bond survived HOME held")
    check(("bonds_forgotten", {"cause": "home"}) in events, "no bonds_forgotten event")
    await asyncio.sleep(1.2)
    gear.home_erase_s = 0

    # Idle: the link drops whatever the host writes; a button brings it back.
    gear.idle_s = 0.8
    check(gear.device.is_advertising, "not advertising after the HOME drop")
    connection, peer = await connect(central, address)
    disconnected = asyncio.get_running_loop().create_future()
    connection.on("disconnection", lambda reason: disconnected.done() or disconnected.set_result(reason))
    keep_alive = characteristic(peer, WRITE_UUID)
    started = time.monotonic()
    await asyncio.wait_for(connection.pair(), 10)
    try:
        while not disconnected.done() and time.monotonic() - started < 5:
            await keep_alive.write_value(bytes.fromhex("0400"), with_response=True)
            await asyncio.sleep(0.2)
    except (Exception, asyncio.CancelledError):
        pass  # the link went while writing: Bumble cancels the pending request
    reason = await asyncio.wait_for(disconnected, 5)
    check(reason == hci.HCI_REMOTE_USER_TERMINATED_CONNECTION_ERROR, f"idle disconnect reason {reason:#x}")
    await asyncio.sleep(0.3)
    check(gear.asleep and not gear.device.is_advertising, "advertising while asleep")
    gear.play(gear.parse_timeline("at 0ms tap trigger 100ms\nat 200ms end", "wake"), "wake")
    await asyncio.sleep(0.5)
    check(not gear.asleep and gear.device.is_advertising, "a button did not wake it")

    names = [event for event, _ in events]
    for expected in ("connected", "paired", "subscribed", "echo", "stream", "keepalive", "idle_disconnect", "woke"):
        check(expected in names, f"no '{expected}' event in {names}")
    check("forbidden_command" not in names, "a forbidden command was reported")
    print(f"gear vr emulator self-test: ok ({rate:.0f} packets a second on this host, samples {median_step} us apart)")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except AssertionError as error:
        print(f"gear vr emulator self-test FAILED: {error}")
        sys.exit(1)
