"""Host-side self-test of the emulator, no VM and no kernel Bluetooth:
a Bumble central on the same emulated link finds the controller by its
advertising, pairs Just Works, subscribes, and checks that packets flow
only once the link is bonded, and that power off/on behaves. Exits 0 on
success; prints what failed otherwise.
"""
from __future__ import annotations

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bumble_fixes  # noqa: E402
from bumble import hci  # noqa: E402
from bumble.core import UUID  # noqa: E402
from bumble.device import Device, DeviceConfiguration, Peer  # noqa: E402
from bumble.keys import MemoryKeyStore  # noqa: E402
from bumble.pairing import PairingConfig, PairingDelegate  # noqa: E402

from daydream_device import EmulatedDaydream  # noqa: E402
from gatt_table import INPUT_UUID  # noqa: E402
from packet import Packet  # noqa: E402
from timeline import Timeline  # noqa: E402


def check(condition, message):
    if not condition:
        raise AssertionError(message)


async def wait_for_count(received, count: int, timeout: float = 5.0) -> None:
    """Until `count` packets came (a loaded host slips the stream's schedule), or `timeout` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(received) < count and loop.time() < deadline:
        await asyncio.sleep(0.02)


async def main() -> None:
    bumble_fixes.apply()
    bumble_fixes.quiet_hot_paths()
    link = bumble_fixes.LocalLink()
    events = []
    daydream = EmulatedDaydream("a", "C0:DD:EE:00:00:01", link,
                                report=lambda event, **fields: events.append((event, fields)))
    await daydream.start()

    central_controller = bumble_fixes.RigController("central", link=link, public_address="00:E2:E0:00:00:09")
    config = DeviceConfiguration(name="central", address=hci.Address("F0:00:00:00:00:09"))
    central = Device.from_config_with_hci(config, central_controller, central_controller)
    central.keystore = MemoryKeyStore()
    central.pairing_config_factory = lambda _c: PairingConfig(
        sc=True, mitm=False, bonding=True,
        delegate=PairingDelegate(io_capability=PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT))
    await central.power_on()

    found = asyncio.get_running_loop().create_future()

    def on_advertisement(advertisement):
        data = advertisement.data
        name = data.get(data.COMPLETE_LOCAL_NAME)
        uuids = data.get(data.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS) or []
        if not found.done() and name == "Daydream controller":
            found.set_result((advertisement.address, [str(u) for u in uuids]))

    central.on("advertisement", on_advertisement)
    await central.start_scanning(filter_duplicates=True)
    address, uuids = await asyncio.wait_for(found, 5)
    await central.stop_scanning()
    check(any("FE55" in u for u in uuids) and any("FEF5" in u for u in uuids), f"advertised UUIDs {uuids}")

    connection = await asyncio.wait_for(central.connect(address, own_address_type=hci.OwnAddressType.PUBLIC), 5)
    peer = Peer(connection)
    await peer.discover_all()
    services = {str(service.uuid) for service in peer.services}
    for uuid in ("FE55", "FEF5", "180F", "180A", "1800"):
        check(any(uuid in s for s in services), f"service {uuid} missing from {services}")
    [input_char] = peer.get_characteristics_by_uuid(UUID(INPUT_UUID))  # type: ignore[attr-defined]

    received = []
    early = []
    # Before pairing: subscribing must fail (insufficient encryption).
    try:
        await input_char.subscribe(lambda value: early.append(bytes(value)))
        subscribed_unencrypted = True
    except Exception:
        subscribed_unencrypted = False
    check(not subscribed_unencrypted, "subscribed without encryption")
    await asyncio.sleep(0.2)
    check(not early, "packets before bonding")

    await asyncio.wait_for(connection.pair(), 10)
    await input_char.subscribe(lambda value: received.append(bytes(value)))
    daydream.play(Timeline.parse("at 0ms touch 10 20\nat 100ms press app\nat 200ms end"), "t")
    await wait_for_count(received, 30)
    check(len(received) >= 30, f"only {len(received)} packets in 5 s")
    packets = [Packet.decode(value) for value in received]
    check(any(p.touch_x == 10 and p.touch_y == 20 for p in packets), "no packet with the touch")
    check(packets[-1].buttons == 0x04, f"last buttons {packets[-1].buttons:#x}, expected app")
    sequences = [p.seq for p in packets]
    check(all((b - a) % 32 == 1 for a, b in zip(sequences, sequences[1:])), f"sequence gaps {sequences}")

    disconnected = asyncio.get_running_loop().create_future()
    connection.on("disconnection", lambda reason: disconnected.set_result(reason))
    await daydream.power_off()
    reason = await asyncio.wait_for(disconnected, 5)
    check(reason == 0x15, f"power off reason {reason:#x}, expected 0x15")
    check(not daydream.device.is_advertising, "advertising while off")
    await daydream.power_on()
    check(daydream.device.is_advertising, "not advertising after power on")

    # Reconnect: the bond holds, encryption from the stored key, packets again.
    connection = await asyncio.wait_for(central.connect(address, own_address_type=hci.OwnAddressType.PUBLIC), 5)
    await asyncio.wait_for(connection.encrypt(), 5)
    peer = Peer(connection)
    await peer.discover_all()
    [input_char] = peer.get_characteristics_by_uuid(UUID(INPUT_UUID))  # type: ignore[attr-defined]
    received.clear()
    await input_char.subscribe(lambda value: received.append(bytes(value)))
    await wait_for_count(received, 10)
    check(len(received) >= 10, f"only {len(received)} packets in 5 s after reconnecting")
    names = [event for event, _ in events]
    for expected in ("connected", "paired", "subscribed", "disconnected", "powered"):
        check(expected in names, f"no '{expected}' event in {names}")
    print("emulator self-test: ok")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except AssertionError as error:
        print(f"emulator self-test FAILED: {error}")
        sys.exit(1)
