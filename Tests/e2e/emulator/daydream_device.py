"""One emulated Daydream View controller: a Bumble Device on its own
link-layer controller, sharing the LocalLink with the guest kernel's.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from typing import Callable

from bumble import hci
from bumble.core import AdvertisingData
from bumble.device import Device, DeviceConfiguration
from bumble.keys import MemoryKeyStore
from bumble.pairing import PairingConfig, PairingDelegate

from bumble_fixes import RigController
from gatt_table import GattTable
from timeline import Recording, State, Timeline, load

logger = logging.getLogger("daydream")

NAME = "Daydream controller"
POWER_OFF_REASON = hci.HCI_REMOTE_DEVICE_TERMINATED_CONNECTION_DUE_TO_POWER_OFF_ERROR  # 0x15


def advertising_data() -> bytes:
    return bytes(AdvertisingData([
        (AdvertisingData.FLAGS, bytes([0x06])),  # LE general discoverable, no BR/EDR
        (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, bytes.fromhex("55FEF5FE")),
        (AdvertisingData.COMPLETE_LOCAL_NAME, NAME.encode()),
    ]))


class EmulatedDaydream:
    """A controller that advertises, pairs Just Works, and streams packets
    at `rate` Hz to a bonded, encrypted, subscribed central.

    `report(event, **fields)` tells the test runner what happened. With
    `hid`, it is a look-alike that also offers a HID keyboard service (0x1812).
    """

    def __init__(self, name: str, address: str, link, report: Callable[..., None],
                 require_bond: bool = True, rate: float = 60.0, hid: bool = False) -> None:
        self.name = name
        self.address = address
        self.report = report
        self.require_bond = require_bond
        self.rate = rate
        self.powered = False
        self.state = self.rest_state()
        self.battery = 87
        self.packets_sent = 0
        self.sequence = 0
        self.stream_started_ns = time.monotonic_ns()
        self.subscribed: set[int] = set()  # connection handles
        self.playback: asyncio.Task | None = None
        self.stream_task: asyncio.Task | None = None
        self.firmware_writes = 0
        self.recording_playing = False
        self.timeline = None  # (Timeline, loop start time, initial State) while playing
        self.advertising_lock = asyncio.Lock()

        self.controller = RigController(f"dd-{name}", link=link, public_address=address)
        config = DeviceConfiguration(name=self.local_name(), address=hci.Address(address))
        config.gap_service_enabled = False
        config.advertising_data = self.advertising_data()
        self.device = Device.from_config_with_hci(config, self.controller, self.controller)
        self.device.keystore = MemoryKeyStore()
        self.device.pairing_config_factory = lambda _connection: PairingConfig(
            sc=True, mitm=False, bonding=True,
            delegate=PairingDelegate(io_capability=PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT),
        )
        self.gatt = self.make_gatt(address.replace(":", ""))
        self.device.add_services(self.gatt.services)
        if hid:
            from hid_service import keyboard_service
            self.device.add_services([keyboard_service()])
        self.gatt.require_encryption_to_subscribe(self.device.gatt_server.attributes)
        self.gatt.input.on("subscription", self._on_subscription)
        self.device.on("connection", self._on_connection)

    # What a controller family changes -------------------------------------
    def local_name(self) -> str:
        return NAME

    def advertising_data(self) -> bytes:
        return advertising_data()

    def scan_response_data(self) -> bytes:
        return b""

    def make_gatt(self, serial: str):
        return GattTable(
            NAME, serial,
            battery_level=lambda: self.battery,
            battery_millivolts=lambda: 2900 + self.battery * 3,
            on_command=self._on_command,
            on_firmware_write=self._on_firmware_write,
        )

    def rest_state(self) -> State:
        """What a controller lying still with nothing held sends."""
        return State()

    def parse_timeline(self, text: str, source: str):
        return Timeline.parse(text, source)

    def load(self, path: str):
        return load(path)

    async def start(self) -> None:
        await self.device.power_on()
        self.stream_task = asyncio.create_task(self._stream())
        await self.power_on()

    # Power ---------------------------------------------------------------
    async def power_on(self) -> None:
        if self.powered:
            return
        self.powered = True
        self.state = self.rest_state()  # a controller wakes with nothing held
        await self._advertise()
        self.report("powered", on=True)

    async def power_off(self) -> None:
        """Like the battery going: drop the link (reason 0x15), stop advertising."""
        if not self.powered:
            return
        self.powered = False
        self._stop_playback()
        async with self.advertising_lock:  # an advertise in flight finishes first
            if self.device.is_advertising:
                await self.device.stop_advertising()
        for connection in list(self.device.connections.values()):
            try:
                await connection.disconnect(reason=POWER_OFF_REASON)
            except Exception as error:  # already gone
                logger.info("disconnect on power off: %s", error)
        self.state = self.rest_state()
        self.report("powered", on=False)

    async def _advertise(self) -> None:
        async with self.advertising_lock:
            if self.powered and not self.device.is_advertising and not self.device.connections:
                await self._start_advertising()

    async def _start_advertising(self) -> None:
        await self.device.start_advertising(
            own_address_type=hci.OwnAddressType.PUBLIC,
            advertising_data=self.advertising_data(),
            scan_response_data=self.scan_response_data(),
            advertising_interval_min=100,
            advertising_interval_max=100,
        )

    async def forget_bonds(self) -> None:
        await self.device.keystore.delete_all()
        self.report("bonds_forgotten")

    # Link events ---------------------------------------------------------
    def _on_connection(self, connection) -> None:
        peer = str(connection.peer_address)
        if not self.powered:  # raced with a power off: a switched-off controller has no links
            asyncio.ensure_future(connection.disconnect(reason=POWER_OFF_REASON))
            return
        self.report("connected", peer=peer, handle=connection.handle)
        connection.on("disconnection", lambda reason: self._on_disconnection(connection, reason))
        connection.on("connection_encryption_change",
                      lambda *args: self.report("encryption", peer=peer, encrypted=bool(connection.is_encrypted)))
        connection.on("pairing", lambda keys: self.report("paired", peer=peer, bonded=True))
        connection.on("pairing_failure", lambda reason: self.report("pairing_failed", peer=peer, reason=int(reason)))

    def _on_disconnection(self, connection, reason) -> None:
        self.subscribed.discard(connection.handle)
        self.report("disconnected", peer=str(connection.peer_address), reason=int(reason))
        asyncio.get_running_loop().call_soon(lambda: asyncio.ensure_future(self._advertise()))

    def _on_subscription(self, connection, notify_enabled, _indicate_enabled) -> None:
        if notify_enabled:
            self.subscribed.add(connection.handle)
        else:
            self.subscribed.discard(connection.handle)
        self.report("subscribed", peer=str(connection.peer_address), on=bool(notify_enabled))

    def _on_command(self, connection, value: bytes) -> None:
        self.report("command", value=value.hex())

    def _on_firmware_write(self, connection, uuid: str, value: bytes) -> None:
        self.firmware_writes += 1
        self.report("firmware_write", uuid=uuid, value=value.hex())

    async def _may_stream_to(self, connection) -> bool:
        if connection.handle not in self.subscribed:
            return False
        if not self.require_bond:
            return True
        if not connection.is_encrypted:
            return False
        return await self.device.keystore.get(str(connection.peer_address)) is not None

    # Battery -------------------------------------------------------------
    async def set_battery(self, level: int) -> None:
        self.battery = level
        await self.device.notify_subscribers(self.gatt.battery_level, bytes([level]))

    # Packets -------------------------------------------------------------
    async def _send(self, data: bytes) -> None:
        for connection in list(self.device.connections.values()):
            if await self._may_stream_to(connection):
                await self.device.notify_subscriber(connection, self.gatt.input, data, force=True)
                self.packets_sent += 1

    async def _stream(self) -> None:
        """The steady stream: the current state (or the playing timeline's)
        at `rate`, while someone listens. A recording being played pauses it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time()
        while True:
            period = 1.0 / self.rate
            deadline += period
            delay = deadline - loop.time()
            if delay < -period:  # fell behind (a stalled guest): don't burst
                deadline = loop.time()
                delay = 0
            await asyncio.sleep(max(0.0, delay))
            if not self.powered or self.recording_playing:
                continue
            if self.timeline is not None:
                script, start, initial = self.timeline
                self.state = script.state_at((loop.time() - start) * 1000, initial)
            state = self.state
            if state.alternate and self.sequence % 2:
                state = dataclasses.replace(state, buttons=state.buttons ^ state.alternate)
            elapsed_ms = (time.monotonic_ns() - self.stream_started_ns) // 1_000_000
            data = state.packet(elapsed_ms, self.sequence).encode()
            self.sequence = (self.sequence + 1) % 32
            await self._send(data)

    def play(self, script, label: str) -> None:
        self._stop_playback()
        self.playback = asyncio.create_task(self._play(script, label))

    def _stop_playback(self) -> None:
        if self.playback and not self.playback.done():
            self.playback.cancel()
        self.playback = None
        self.recording_playing = False
        self.timeline = None

    async def _play(self, script, label: str) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        self.report("play_started", label=label, t_ns=time.monotonic_ns())
        try:
            if isinstance(script, Recording):
                self.recording_playing = True
                for at_ms, kind, value in script.entries:
                    await asyncio.sleep(max(0.0, start + at_ms / 1000 - loop.time()))
                    if kind == "packet":
                        if self.powered:
                            await self._send(value)
                    elif kind == "power-off":
                        await self._power_off_keep_playing()
                    elif kind == "power-on":
                        await self.power_on()
                    elif kind == "battery":
                        await self.set_battery(value)
            else:
                self.rate = script.rate
                initial = State(acceleration=self.state.acceleration)
                self.timeline = (script, start, initial)
                for action in script.power_actions():
                    await asyncio.sleep(max(0.0, start + action.at_ms / 1000 - loop.time()))
                    if action.kind == "power-off":
                        await self._power_off_keep_playing()
                    else:
                        await self.power_on()
                await asyncio.sleep(max(0.0, start + script.end_ms / 1000 - loop.time()))
                self.state = script.state_at(script.end_ms, initial)
        finally:
            self.recording_playing = False
            self.timeline = None
        self.report("play_finished", label=label, t_ns=time.monotonic_ns())

    async def _power_off_keep_playing(self) -> None:
        playback, timeline = self.playback, self.timeline
        self.playback = None
        await self.power_off()
        self.playback, self.timeline = playback, timeline
