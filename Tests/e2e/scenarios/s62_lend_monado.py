"""Lending the controller to Monado: a second client doing exactly what Monado's Daydream
driver does (AcquireNotify on the input characteristic over the system bus, 20-byte packets
read from the descriptor) gets the controller only while the bridge lends it."""
from __future__ import annotations

import os
import time

import dbus

from bluez import CHARACTERISTIC, DEVICE, device_path
from bridge_helpers import gamepad, run_bridge_command, start_streaming, wait_streaming
from input_devices import expect_frames, wait_frames
from notify_reader import read_packets
from packet import Packet
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
INPUT_UUID = "00000001-1000-1000-8000-00805f9b34fb"

HOLD_VOLUME_UP = """
at 0ms    press volume-up
at 100ms  end
"""
RELEASE = """
at 0ms    release volume-up
at 100ms  end
"""
TAP = """
at 0ms    tap volume-up 150ms
at 400ms  end
"""


def monado_acquire(rig, characteristic: str) -> tuple[int, int]:
    """Monado's call: AcquireNotify on the input characteristic, as root on the system bus."""
    return rig.bluez.acquire_notify(characteristic)


def refused(rig, characteristic: str) -> str:
    """The error name BlueZ answers Monado's AcquireNotify with; fails if it is granted."""
    try:
        fd, _ = monado_acquire(rig, characteristic)
    except dbus.DBusException as error:
        return error.get_dbus_name()
    os.close(fd)
    raise AssertionError("AcquireNotify was granted to a second client while the bridge holds the controller")


def lend(rig, *args: str) -> str:
    result = run_bridge_command(rig, "lend", *args)
    assert result.returncode == 0, f"daydream-bridge lend exited {result.returncode}:\n{result.stdout}{result.stderr}"
    return result.stdout


def tap_reaches(rig, pad, what: str) -> None:
    """The bridge streams: a tap of volume-up comes out on its gamepad."""
    pad.drain()
    rig.play(NAME, TAP)
    expect_frames(wait_frames(pad, 2, timeout=10), [["BTN_TR 1"], ["BTN_TR 0"]], what)


@scenario("bridge: lend the controller to a Monado-like client, take it back", needs=("run", "lend", "reclaim"))
def bridge_lend_monado(rig):
    """Refused while the bridge holds the controller; the bridge releases everything at `lend`
    and keeps the connection; the client reads the controller's packets; the bridge streams
    again once the client closes its descriptor, and after `reclaim`."""
    start_streaming(rig, NAME, ADDRESS)
    pad = gamepad(rig)
    device = device_path(ADDRESS, rig.adapter)
    characteristic = rig.bluez.characteristic(device, INPUT_UUID)
    try:
        name = refused(rig, characteristic)
        assert name == "org.bluez.Error.NotPermitted", f"Monado's AcquireNotify while the bridge holds it: {name}"

        # A button held when lending: the gamepad releases it at once.
        pad.drain()
        rig.play(NAME, HOLD_VOLUME_UP)
        expect_frames(wait_frames(pad, 1, timeout=10), [["BTN_TR 1"]], "volume-up held before lending")
        started = time.monotonic()
        status = lend(rig)
        answered = time.monotonic() - started
        assert f"{ADDRESS}: gamepad, lent" in status, f"lend's status: {status!r}"
        # The controller still streams volume-up held (60 Hz, no silence), so only the lending
        # releases it, and the daemon writes the release before it answers: it is queued now.
        expect_frames(wait_frames(pad, 1, timeout=0.5), [["BTN_TR 0"]], "the held button at lend")
        rig.figure(f"lend answered in {answered:.1f} s (the debug CLI's start in the VM included), "
                   "the held button's release already written")
        assert rig.bluez.get(device, DEVICE, "Connected"), "lending disconnected the controller"
        listed = run_bridge_command(rig, "list")
        assert "lent" in listed.stdout, f"list does not show the controller lent:\n{listed.stdout}"

        # BlueZ announces the bridge's descriptor closed; then Monado's AcquireNotify is granted.
        rig.bluez.wait_property(characteristic, CHARACTERISTIC, "NotifyAcquired", False, timeout=10)
        fd, mtu = monado_acquire(rig, characteristic)
        try:
            packets = read_packets(fd, mtu, 1.0)
            assert len(packets) >= 20, f"Monado's descriptor gave {len(packets)} packets in 1 s"
            assert all(len(data) == 20 for _, data in packets), "a notification that is not 20 bytes"
            assert all(Packet.decode(data).buttons == 0x10 for _, data in packets), \
                "Monado's packets do not show volume-up still held"
            rig.play(NAME, RELEASE)
            assert wait_frames(pad, 1, timeout=1.5) == [], "the gamepad moved while the controller was lent"
            rig.figure(f"lent: Monado's descriptor read {len(packets)} packets in 1 s")
        finally:
            mark = rig.emulator.mark()
            closed = time.monotonic()
            os.close(fd)

        # Monado let go: the bridge takes the controller back by itself.
        wait_streaming(rig, NAME, since=mark, timeout=20)
        rig.figure(f"Monado's descriptor closed -> bridge subscribed again in {time.monotonic() - closed:.2f} s")
        tap_reaches(rig, pad, "the gamepad after Monado let go")
        assert refused(rig, characteristic) == "org.bluez.Error.NotPermitted"

        # Lent and taken back by hand.
        lend(rig, ADDRESS)
        mark = rig.emulator.mark()
        result = run_bridge_command(rig, "reclaim", ADDRESS)
        assert result.returncode == 0, f"reclaim exited {result.returncode}:\n{result.stdout}{result.stderr}"
        wait_streaming(rig, NAME, since=mark, timeout=20)
        tap_reaches(rig, pad, "the gamepad after reclaim")
        assert rig.bluez.get(device, DEVICE, "Connected"), "the controller disconnected on the way"
    finally:
        pad.close()
