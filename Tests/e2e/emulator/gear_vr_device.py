"""One emulated Samsung Gear VR controller (controllers.md): its GATT table,
its advertising, and the behaviours a bridge has to get right.

- `0800` ("VR mode"): the 2-byte echo `08 00` comes `echo_delay` s later
  (about 1.5 s on the hardware); `0100` after that echo starts the stream,
  60-byte packets at `rate` (about 68) a second, three IMU samples each.
- `0100` before that echo: one `01 00` echo, then silence (reported as
  `early_start`) until the next `0800`.
- `0400`, the keep-alive: accepted silently; `0000` stops the stream.
- Any other command is reported as `forbidden_command` (`0200` would
  enter the firmware update); so is any write to 0xFEF5.
- With `idle_s`, the controller drops the link (reason 0x13) and stops
  advertising after that long without a change of buttons or touch, whatever
  the host writes; a button press wakes it.
- With `home_erase_s`, holding HOME that long erases its bonds and drops
  the link: the host's keys are then stale.
- `stall()` silences the stream without a disconnect until the next `0800`.

A timeline's `rate` does not change the controller's: the hardware's is fixed.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import time

from bumble import hci
from bumble.core import AdvertisingData

from daydream_device import EmulatedDaydream
from gear_vr_gatt import GearVRGattTable
from gear_vr_packet import (
    AT_REST_ACCELERATION,
    BUTTON_BITS,
    JUST_LIFTED,
    MAGNETOMETER,
    NOT_TOUCHING,
    PACKET_SIZE,
    SAMPLES,
    TEMPERATURE,
    TOUCHING,
    VOCABULARY,
    GearVRPacket,
    Sample,
)
from timeline import State, Timeline, load

logger = logging.getLogger("gear-vr")

NAME_PREFIX = "Gear VR Controller"
SAMSUNG = 0x0075
APPEARANCE = 0x03C0
MAGNETOMETER_DELAY_S = 1.0  # zero for about a second after the stream starts
USER_TERMINATED = hci.HCI_REMOTE_USER_TERMINATED_CONNECTION_ERROR  # 0x13

START = bytes.fromhex("0100")
STOP = bytes.fromhex("0000")
KEEP_ALIVE = bytes.fromhex("0400")
VR_MODE = bytes.fromhex("0800")


class EmulatedGearVR(EmulatedDaydream):
    """A Gear VR controller on the shared link; the same control surface as
    the Daydream's (power, play, battery, forget_bonds, state)."""

    def __init__(self, name: str, address: str, link, report, require_bond: bool = True,
                 rate: float = 68.0, echo_delay: float = 1.5, idle_s: float = 0.0,
                 home_erase_s: float = 0.0) -> None:
        self.echo_delay = echo_delay
        self.idle_s = idle_s
        self.home_erase_s = home_erase_s
        self.handshake: dict[int, str] = {}  # connection handle -> "waiting" | "ready" | "jammed"
        self.streaming: dict[int, int] = {}  # connection handle -> stream start (monotonic ns)
        self.asleep = False
        self.last_activity = time.monotonic()
        self.home_since: float | None = None
        self.last_seen: tuple = ()
        self.was_touching = False
        self.next_sample_us: float | None = None
        self.echo_tasks: set[asyncio.Task] = set()
        super().__init__(name, address, link, report, require_bond=require_bond, rate=rate)
        self.stream_rate = rate

    # The family's surface ----------------------------------------------------
    def local_name(self) -> str:
        return f"{NAME_PREFIX}({self.address.replace(':', '')[-4:].upper()})"

    def advertising_data(self) -> bytes:
        # The name fills the 31 bytes beside the flags; Samsung's data and the
        # appearance go in the scan response.
        return bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, self.local_name().encode()),
        ]))

    def scan_response_data(self) -> bytes:
        return bytes(AdvertisingData([
            (AdvertisingData.APPEARANCE, APPEARANCE.to_bytes(2, "little")),
            (AdvertisingData.MANUFACTURER_SPECIFIC_DATA, SAMSUNG.to_bytes(2, "little") + bytes([0x01, 0x00, 0x24, 0x03])),
        ]))

    def make_gatt(self, serial: str):
        return GearVRGattTable(
            self.local_name(), serial,
            battery_level=lambda: self.battery,
            on_command=self._on_command,
            on_firmware_write=self._on_firmware_write,
        )

    def rest_state(self) -> State:
        return State(acceleration=AT_REST_ACCELERATION)

    def parse_timeline(self, text: str, source: str):
        return Timeline.parse(text, source, VOCABULARY)

    def load(self, path: str):
        return load(path, VOCABULARY, PACKET_SIZE)

    # Power and links ---------------------------------------------------------
    async def power_on(self) -> None:
        if self.asleep:
            await self._wake("power")
        await super().power_on()

    async def _wake(self, cause: str) -> None:
        self.asleep = False
        self.last_activity = time.monotonic()
        self.report("woke", cause=cause)
        await self._advertise()

    async def _advertise(self) -> None:
        if not self.asleep:
            await super()._advertise()

    def _on_disconnection(self, connection, reason) -> None:
        self.handshake.pop(connection.handle, None)
        self.streaming.pop(connection.handle, None)
        super()._on_disconnection(connection, reason)

    def _on_connection(self, connection) -> None:
        self.last_activity = time.monotonic()
        super()._on_connection(connection)

    async def _drop_links(self, reason: int) -> None:
        for connection in list(self.device.connections.values()):
            try:
                await connection.disconnect(reason=reason)
            except Exception as error:  # already gone
                logger.info("disconnect: %s", error)

    # Commands ----------------------------------------------------------------
    def _on_command(self, connection, value: bytes) -> None:
        handle = connection.handle
        self.report("command", value=value.hex())
        if value == VR_MODE:
            self.streaming.pop(handle, None)
            self.handshake[handle] = "waiting"
            self._later(self._echo_vr_mode(connection))
        elif value == START:
            if self.handshake.get(handle) == "ready":
                self.handshake.pop(handle, None)
                self.streaming[handle] = time.monotonic_ns()
                self.report("stream", on=True)
            else:
                # Too early (before the VR-mode echo): one echo, then silence.
                self.streaming.pop(handle, None)
                self.handshake[handle] = "jammed"
                self.report("early_start", handshake=self.handshake.get(handle))
                self._later(self._echo(connection, START))
        elif value == KEEP_ALIVE:
            self.report("keepalive")
        elif value == STOP:
            self.handshake.pop(handle, None)
            if self.streaming.pop(handle, None) is not None:
                self.report("stream", on=False)
        else:
            self.report("forbidden_command", value=value.hex())

    def stall(self) -> None:
        """The stream goes silent without a disconnect, as after a bad start, until
        the host starts it again (0800, its echo, 0100)."""
        for handle in list(self.streaming):
            self.streaming.pop(handle)
            self.handshake[handle] = "jammed"
        self.report("stalled")

    def _later(self, coroutine) -> None:
        task = asyncio.ensure_future(coroutine)
        self.echo_tasks.add(task)
        task.add_done_callback(self.echo_tasks.discard)

    async def _echo_vr_mode(self, connection) -> None:
        await asyncio.sleep(self.echo_delay)
        if self.handshake.get(connection.handle) != "waiting":
            return  # the link dropped, or another command came first
        self.handshake[connection.handle] = "ready"
        await self._echo(connection, VR_MODE)

    async def _echo(self, connection, value: bytes) -> None:
        if connection.handle not in self.device.connections or connection.handle not in self.subscribed:
            return
        await self.device.notify_subscriber(connection, self.gatt.input, value, force=True)
        self.report("echo", value=value.hex())

    async def _may_stream_to(self, connection) -> bool:
        return connection.handle in self.streaming and await super()._may_stream_to(connection)

    # The stream --------------------------------------------------------------
    async def _stream(self) -> None:
        """Every 1/rate s: the current state (a playing timeline's), the idle
        and HOME-held clocks, and a packet to each link that started the stream."""
        loop = asyncio.get_running_loop()
        period = 1.0 / self.stream_rate
        deadline = loop.time()
        while True:
            deadline += period
            delay = deadline - loop.time()
            if delay < -period:  # fell behind (a stalled guest): don't burst
                deadline = loop.time()
                delay = 0
            await asyncio.sleep(max(0.0, delay))
            if not self.powered:
                continue
            if self.timeline is not None and not self.recording_playing:
                script, start, initial = self.timeline
                self.state = script.state_at((loop.time() - start) * 1000, initial)
            state = self.state
            await self._watch_user(state)
            if self.recording_playing or not self.streaming or self.asleep:
                continue
            if state.alternate and self.sequence % 2:
                state = dataclasses.replace(state, buttons=state.buttons ^ state.alternate)
            self.sequence += 1
            await self._send(self._packet(state))

    async def _watch_user(self, state: State) -> None:
        now = time.monotonic()
        seen = (state.buttons, state.touch)
        if seen != self.last_seen or state.buttons:
            self.last_activity = now
            self.last_seen = seen
        if self.asleep:
            if state.buttons:
                await self._wake("button")
            return
        home = state.buttons & BUTTON_BITS["home"]
        if not home:
            self.home_since = None
        elif self.home_since is None:
            self.home_since = now
        elif self.home_erase_s and now - self.home_since >= self.home_erase_s:
            self.home_since = None
            await self.device.keystore.delete_all()
            self.report("bonds_forgotten", cause="home")
            await self._drop_links(USER_TERMINATED)
        if self.idle_s and self.device.connections and now - self.last_activity >= self.idle_s:
            self.asleep = True
            self.report("idle_disconnect", after_s=round(now - self.last_activity, 2))
            async with self.advertising_lock:
                if self.device.is_advertising:
                    await self.device.stop_advertising()
            await self._drop_links(USER_TERMINATED)

    def _packet(self, state: State) -> bytes:
        now_ns = time.monotonic_ns()
        started_ns = min(self.streaming.values())
        # The sensor samples at a steady rate: each packet carries the next three
        # sample times, caught up with the clock after a stall.
        now_us = (now_ns - self.stream_started_ns) / 1000
        sample_us = 1_000_000 / (self.stream_rate * SAMPLES)
        first = self.next_sample_us
        if first is None or now_us - first > 2 * SAMPLES * sample_us:
            first = max(now_us - (SAMPLES - 1) * sample_us, first or 0.0)
        samples = [Sample(round(first + index * sample_us), state.acceleration, state.gyro)
                   for index in range(SAMPLES)]
        self.next_sample_us = first + SAMPLES * sample_us
        touching = state.touch != (0, 0)
        if touching:
            touch_state = TOUCHING
        elif self.was_touching:
            touch_state = JUST_LIFTED
        else:
            touch_state = NOT_TOUCHING
        self.was_touching = touching
        magnetometer = MAGNETOMETER if (now_ns - started_ns) / 1e9 >= MAGNETOMETER_DELAY_S else (0, 0, 0)
        x, y = state.touch if touching else (0, 0)
        return GearVRPacket(
            samples=samples, magnetometer=magnetometer, touch_x=x, touch_y=y, touch_state=touch_state,
            temperature=TEMPERATURE, buttons=state.buttons, idle=not state.buttons and not touching,
            battery=self.battery,
        ).encode()
