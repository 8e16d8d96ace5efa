"""The rig proves itself, without the bridge: the emulated controller over
real BlueZ (discovery with the FE55 filter, Just Works pairing, GATT reads,
AcquireNotify), and real uinput and udev in the guest."""
from __future__ import annotations

import os
import time

import evdev
from evdev import ecodes

from bluez import DEVICE, FE55, FEF5, INPUT_UUID
from input_devices import InputDevice, expect_frames, udev_properties_of
from notify_reader import percentile, read_delays_ms, read_packets
from packet import Packet
from rig import scenario

ADDRESS = "C0:DD:EE:00:00:0A"


@scenario("rig: emulator, BlueZ discovery, pairing, GATT, AcquireNotify")
def rig_bluez(rig):
    """The emulated controller through real bluetoothd, with the rig's own agent."""
    rig.controller("rig", ADDRESS)
    bluez = rig.bluez
    agent = rig.rig_agent()

    device = bluez.discover(ADDRESS, uuids=(FE55,))
    assert str(bluez.get(device, DEVICE, "Name")) == "Daydream controller", "advertised name"
    uuids = [str(u).lower() for u in bluez.get(device, DEVICE, "UUIDs")]
    assert FE55 in uuids and FEF5 in uuids, f"advertised UUIDs {uuids}"

    mark = rig.emulator.mark()
    started = time.monotonic()
    bluez.call(device, DEVICE, "Pair")
    bluez.wait_property(device, DEVICE, "Paired", True)
    bluez.wait_property(device, DEVICE, "Bonded", True)
    rig.emulator.wait_event("paired", "rig", since=mark)
    rig.figure(f"rig: Pair() through BlueZ took {time.monotonic() - started:.2f} s")
    if not bluez.get(device, DEVICE, "Connected"):
        bluez.call(device, DEVICE, "Connect")
    bluez.wait_property(device, DEVICE, "ServicesResolved", True, timeout=30)

    battery = bluez.read(bluez.characteristic(device, "00002a19-0000-1000-8000-00805f9b34fb"))
    assert battery == bytes([87]), f"battery {battery!r}"
    strings = {}
    for uuid in ("2a29", "2a24", "2a25", "2a27", "2a26", "2a28"):
        strings[uuid] = bluez.read(bluez.characteristic(device, f"0000{uuid}-0000-1000-8000-00805f9b34fb")).decode()
    assert strings["2a26"] == "1.3.5" and strings["2a27"] == "0005.0003" and strings["2a28"] == "825769af", strings
    assert strings["2a25"] == ADDRESS.replace(":", ""), strings

    fd, mtu = bluez.acquire_notify(bluez.characteristic(device, INPUT_UUID))
    try:
        rig.emulator.wait_event("subscribed", "rig", since=mark, on=True)
        read_packets(fd, mtu, 0.3)  # whatever streamed before the timeline
        log_path = os.path.join(rig.logs, "vhci-rig.txt")
        rig.emulator.request("notifications", path=log_path, clear=True)
        length = rig.play("rig", "rig-basic")
        packets = read_packets(fd, mtu, length + 0.5)
        rig.emulator.request("notifications", path=log_path, clear=True)
    finally:
        os.close(fd)
    # The floor any bridge is measured against: this Python reader's delay
    # from the emulator's /dev/vhci write to its own read of the packet.
    delays = read_delays_ms(packets, log_path)
    if delays:
        rig.figure(f"rig: vhci write -> Python AcquireNotify read: p50 {delays[len(delays) // 2]:.2f} ms, "
                   f"p99 {percentile(delays, 0.99):.2f} ms "
                   f"({len(delays)} packets)")
    assert len(packets) >= 40, f"only {len(packets)} packets in {length + 0.5:.1f} s"
    assert all(len(data) == 20 for _, data in packets), "a notification of the wrong size"
    decoded = [Packet.decode(data) for _, data in packets]
    sequences = [p.seq for p in decoded]
    gaps = sum((b - a) % 32 != 1 for a, b in zip(sequences, sequences[1:]))
    assert gaps == 0, f"{gaps} sequence gaps: {sequences}"
    touches = [(p.touch_x, p.touch_y) for p in decoded]
    assert (10, 20) in touches and (250, 20) in touches, f"touch path missing: {sorted(set(touches))}"
    assert any(p.buttons == 0x10 for p in decoded), "volume-up never seen"
    assert any((p.gyro_x, p.gyro_y, p.gyro_z) == (100, -100, 7) for p in decoded), "gyro never seen"
    assert decoded[-1].buttons == 0 and (decoded[-1].touch_x, decoded[-1].touch_y) == (0, 0), "final state"
    rate = len(packets) / ((packets[-1][0] - packets[0][0]) / 1e9)
    rig.figure(f"rig: AcquireNotify stream {rate:.0f} packets/s, {len(packets)} packets, no gaps")
    state = rig.emulator_state("rig")
    assert state["firmware_writes"] == 0, "something wrote to FEF5"
    assert state["connections"] and state["connections"][0]["encrypted"], state

    # Power off: BlueZ sees the link drop; power on: it connects again, encrypted.
    mark = rig.emulator.mark()
    off = time.monotonic()
    rig.emulator.request("power", name="rig", on=False)
    bluez.wait_property(device, DEVICE, "Connected", False, timeout=10)
    rig.figure(f"rig: power off -> Connected=false in {(time.monotonic() - off) * 1000:.0f} ms")
    rig.emulator.request("power", name="rig", on=True)
    on = time.monotonic()
    bluez.call(device, DEVICE, "Connect")
    bluez.wait_property(device, DEVICE, "ServicesResolved", True, timeout=30)
    fd, mtu = bluez.acquire_notify(bluez.characteristic(device, INPUT_UUID))
    try:
        again = read_packets(fd, mtu, 1.0)
    finally:
        os.close(fd)
    assert len(again) >= 20, f"only {len(again)} packets after reconnecting"
    rig.figure(f"rig: power on -> notifying again in {(again[0][0] / 1e9 - on):.2f} s")
    agent.stop()
    # The bridge's scenarios pair their own controllers: leave no other paired.
    from bridge_helpers import unpair
    unpair(rig, "rig", ADDRESS)


GAMEPAD = {
    ecodes.EV_KEY: [ecodes.BTN_SOUTH, ecodes.BTN_EAST, ecodes.BTN_MODE],
    ecodes.EV_ABS: [
        (ecodes.ABS_X, evdev.AbsInfo(0, -32768, 32767, 0, 0, 0)),
        (ecodes.ABS_Y, evdev.AbsInfo(0, -32768, 32767, 0, 0, 0)),
    ],
}
MOUSE = {
    ecodes.EV_KEY: [ecodes.BTN_LEFT, ecodes.BTN_RIGHT, ecodes.BTN_MIDDLE],
    ecodes.EV_REL: [ecodes.REL_X, ecodes.REL_Y, ecodes.REL_WHEEL],
}


def find_node(name: str) -> InputDevice:
    from input_devices import wait_for_device
    return wait_for_device(lambda n: n == name, timeout=10)


@scenario("rig: uinput in the guest, read back exactly", udev=True)
def rig_uinput(rig):
    """A python-evdev uinput device's events come back exactly, with monotonic timestamps."""
    with evdev.UInput(GAMEPAD, name="e2e rig pad", vendor=0x1D6B, product=0x0E2E) as pad:
        node = find_node("e2e rig pad")
        try:
            time.sleep(0.2)
            before = time.monotonic_ns()
            pad.write(ecodes.EV_KEY, ecodes.BTN_SOUTH, 1)
            pad.syn()
            pad.write(ecodes.EV_ABS, ecodes.ABS_X, 32767)
            pad.write(ecodes.EV_ABS, ecodes.ABS_Y, -5)
            pad.syn()
            pad.write(ecodes.EV_KEY, ecodes.BTN_SOUTH, 0)
            pad.syn()
            after = time.monotonic_ns()
            frames = node.read_frames(2.0, until_quiet=0.3)
            expect_frames(frames, [["BTN_SOUTH 1"], ["ABS_X 32767", "ABS_Y -5"], ["BTN_SOUTH 0"]], "uinput readback")
            assert all(before <= f.t_ns <= after for f in frames), \
                f"timestamps not on CLOCK_MONOTONIC: {[f.t_ns for f in frames]} not in [{before}, {after}]"
        finally:
            node.close()


@scenario("rig: udev classifies a gamepad as a joystick, a mouse as a mouse", udev=True)
def rig_udev(rig):
    """systemd-udevd's input_id: the gamepad-like device is ID_INPUT_JOYSTICK, the mouse ID_INPUT_MOUSE."""
    with evdev.UInput(GAMEPAD, name="e2e rig pad"), evdev.UInput(MOUSE, name="e2e rig mouse"):
        pad_node, mouse_node = find_node("e2e rig pad"), find_node("e2e rig mouse")
        try:
            pad_props, mouse_props = udev_properties_of([pad_node, mouse_node])
        finally:
            pad_node.close()
            mouse_node.close()
    assert pad_props.get("ID_INPUT_JOYSTICK") == "1", f"gamepad: {pad_props}"
    assert "ID_INPUT_MOUSE" not in pad_props, f"gamepad classified as a mouse: {pad_props}"
    assert mouse_props.get("ID_INPUT_MOUSE") == "1", f"mouse: {mouse_props}"
    assert "ID_INPUT_JOYSTICK" not in mouse_props, f"mouse classified as a joystick: {mouse_props}"
