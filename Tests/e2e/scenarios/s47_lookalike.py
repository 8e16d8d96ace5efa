"""A look-alike: it advertises as a Daydream controller (the name, FE55) but
also offers a HID keyboard service, which bluetoothd would turn into a
keyboard once bonded. `pair` refuses it and removes it from BlueZ, the bridge
never pairs it, and the known controller still works."""
from __future__ import annotations

import os
import subprocess
import time

from bluez import DEVICE, device_path
from bridge_helpers import ensure_paired, gamepad, play_and_read, run_bridge_command, start_bridge, unpair, wait_streaming
from input_devices import expect_frames, list_devices
from rig import scenario
from timeline_texts import TAP_CLICK

PAD, PAD_ADDRESS = "pad", "C0:DD:EE:00:00:01"
FAKE, FAKE_ADDRESS = "lookalike", "C0:DD:EE:00:00:0F"
OTHER, OTHER_ADDRESS = "pad-c", "C0:DD:EE:00:00:0E"


def keyboards_from_bluetoothd() -> list[str]:
    """Input devices bluetoothd's HID plugin made for the look-alike (named after it;
    the bridge's own are 'Daydream Controller Gamepad' and so on)."""
    return [f"{path} {name}" for path, name in list_devices().items() if name.startswith("Daydream controller")]


@scenario("pair: a look-alike with a HID keyboard service is refused and removed; the known controller still works",
          needs=("run", "pair"))
def pair_refuses_lookalike(rig):
    """`daydream-bridge pair ADDRESS` on a device named 'Daydream controller' with FE55
    and a HID service (0x1812): exit 1 saying why, no device left in BlueZ,
    no keyboard left behind; then `run` ignores it while it advertises and the
    paired controller streams to its gamepad."""
    ensure_paired(rig, PAD, PAD_ADDRESS)
    try:
        refuse_and_carry_on(rig)
    finally:
        unpair(rig, FAKE, FAKE_ADDRESS)  # later scenarios expect one controller
        if OTHER in rig.controllers:
            unpair(rig, OTHER, OTHER_ADDRESS)


@scenario("pair: several unpaired controllers in range -> pair lists them and pairs none", needs=("pair",))
def pair_lists_candidates(rig):
    """`daydream-bridge pair` without ADDRESS, with two unpaired devices calling
    themselves Daydream controllers in range: it names both and bonds neither."""
    try:
        rig.controller(FAKE, FAKE_ADDRESS, hid=True)
        rig.controller(OTHER, OTHER_ADDRESS)
        mark = rig.emulator.mark()
        result = run_bridge_command(rig, "pair")
        output = result.stdout + result.stderr
        assert result.returncode == 1, f"pair with two candidates exited {result.returncode}:\n{output}"
        assert FAKE_ADDRESS in result.stdout and OTHER_ADDRESS in result.stdout, f"pair did not list both:\n{output}"
        assert "daydream-bridge pair ADDRESS" in result.stderr, output
        rig.emulator.poll()
        assert not any(e["event"] == "paired" for e in rig.emulator.events[mark:]), "pair bonded one of them"
    finally:
        unpair(rig, FAKE, FAKE_ADDRESS)
        unpair(rig, OTHER, OTHER_ADDRESS)


def forgotten(rig, path: str) -> bool:
    """BlueZ holds nothing of the device: no object, or, while something discovers and the
    look-alike advertises, only the fresh object an advertisement makes (no bond, no trust)."""
    device = rig.bluez.objects().get(path, {}).get(DEVICE)
    return device is None or not (device.get("Paired") or device.get("Bonded") or device.get("Trusted"))


def refuse_and_carry_on(rig):
    rig.emulator.request("power", name=PAD, on=False)
    rig.controller(FAKE, FAKE_ADDRESS, hid=True)
    path = device_path(FAKE_ADDRESS, rig.adapter)
    mark = rig.emulator.mark()
    started = time.monotonic()
    # BlueZ's own signal says the object went: while something discovers, an advertisement may
    # bring a fresh one back at once, so the object's absence alone proves nothing either way.
    removals = os.path.join(rig.logs, "lookalike-removals.txt")
    with open(removals, "w") as log:
        monitor = subprocess.Popen(["dbus-monitor", "--system", "type='signal',"
                                    "interface='org.freedesktop.DBus.ObjectManager',member='InterfacesRemoved'"],
                                   stdout=log, stderr=subprocess.STDOUT)
    try:
        # Once it is a monitor, the bus tells it that it lost its unique name.
        rig.bluez.wait(lambda: "member=NameLost" in open(removals).read(), 10, "dbus-monitor to become a monitor")
        result = run_bridge_command(rig, "pair", FAKE_ADDRESS)
        output = result.stdout + result.stderr
        assert result.returncode == 1, f"pair of the look-alike exited {result.returncode}:\n{output}"
        assert "not a Daydream controller" in output and "0x1812" in output, f"pair gave no reason:\n{output}"
        assert "Paired and trusted" not in output, output
        # Looked at unbonded, then blocked and removed (s48 checks the bond and the keyboard).
        rig.bluez.wait(lambda: f'object path "{path}"' in open(removals).read(), 10,
                       "BlueZ's InterfacesRemoved for the look-alike")
    finally:
        monitor.terminate()
        monitor.wait()
    rig.bluez.wait(lambda: forgotten(rig, path), 10, "BlueZ to hold no bond or trust for the look-alike")
    refused = rig.emulator.wait_event("disconnected", FAKE, since=mark, timeout=10)
    rig.figure(f"look-alike refused and removed by 'pair': {time.monotonic() - started:.1f} s")
    deadline = time.monotonic() + 5
    while (left := keyboards_from_bluetoothd()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, f"bluetoothd's keyboard for the look-alike is still there: {left}"

    # The bridge runs while the look-alike advertises: the known controller streams, the look-alike stays unpaired.
    rig.emulator.request("power", name=PAD, on=True)
    mark = rig.emulator.mark()
    start_bridge(rig)
    pad = gamepad(rig)
    wait_streaming(rig, PAD, since=mark)
    _, frames = play_and_read(rig, PAD, TAP_CLICK, [pad])
    expect_frames(frames[pad], [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]], "the known controller beside the look-alike")
    pad.close()
    assert not rig.bluez.get_or_none(path, DEVICE, "Paired"), "the bridge paired the look-alike"
    assert not any(e["event"] == "paired" and e["name"] == FAKE for e in rig.emulator.events[mark:]), \
        "the look-alike was paired while the bridge ran"
    assert not keyboards_from_bluetoothd(), "a keyboard for the look-alike appeared while the bridge ran"
    # Nothing connected it again after the refusal (the kernel's auto-connect list, where bluetoothd's
    # HID profile had put it, is emptied before BlueZ forgets it).
    again = [e for e in rig.emulator.events if e["name"] == FAKE and e["event"] == "connected" and e["t_ns"] > refused["t_ns"]]
    assert not again, f"the look-alike was connected again after the refusal: {again}"
