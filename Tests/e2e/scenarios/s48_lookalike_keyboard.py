"""A look-alike's keyboard window: a device that advertises as a Daydream
controller (the name, FE55) and has a HID keyboard service (0x1812) is paired
with `daydream-bridge pair ADDRESS`, uhid and hid-generic loaded. A process
of its own (runner/device_watch.py) looks every 10 ms for an input or HID
device named after it; the kernel's log and bluetoothd's debug log show
afterwards any that came and went between two looks.

What BlueZ 5.66 does (src/device.c gatt_client_ready_cb, profiles/input/hog.c
hog_accept): once its GATT client has read a new device's table, bluetoothd
probes and accepts the input-hog profile for a HID service, and only then
signals UUIDs and ServicesResolved; for an unbonded device hog_accept raises
the link's security, so the kernel pairs it (Just Works; Linux 6.1 has
bluetoothd ask the default agent to confirm, which the bridge's refuses
while it looks). No D-Bus client can act before HoG connects. So with the stock
input.conf the scenario checks what the bridge can make sure of: it never
asks BlueZ to bond the device, it blocks it as soon as 0x1812 shows, and no
keyboard ever exists; HoG's states and whether the kernel finished pairing
are figures. With `LEAutoSecurity=false` HoG refuses an unbonded device,
and as the bridge never bonds a look-alike, HoG never connects: checked too.
Last, a control: bonded and connected without the bridge, the look-alike
does get its keyboard, and the watch sees it."""
from __future__ import annotations

import contextlib
import os
import re
import subprocess

from bluez import DEVICE, device_path
from bridge_helpers import run_bridge_command, unpair
from device_watch import DeviceWatch
from processes import modprobe
from rig import scenario

# The same look-alike as s47_lookalike.py: the emulator keeps one per name.
FAKE, FAKE_ADDRESS = "lookalike", "C0:DD:EE:00:00:0F"
# Its name, which bluetoothd gives the keyboard; the bridge's own devices are "Daydream Controller ...".
FAKE_NAME = "Daydream controller"
INPUT_CONF = "/etc/bluetooth/input.conf"
BLOCKED = re.compile(r"btd_adapter_block_address\(\) hci\d+ " + re.escape(FAKE_ADDRESS))
HOG_STATE = re.compile(r"device " + re.escape(FAKE_ADDRESS) + r" profile input-hog state changed: (\w+) -> (\w+)")


@scenario("pair: a look-alike with a HID keyboard never gets an input device (uhid loaded, looked for every 10 ms); "
          "with LEAutoSecurity=false its HoG profile never connects", needs=("pair",))
def pair_lookalike_has_no_keyboard_window(rig):
    for module in ("uhid", "hid-generic"):
        modprobe(module)
    assert os.path.exists("/dev/uhid"), "no /dev/uhid after modprobe uhid"
    try:
        stock = attempt(rig)
        rig.figure(f"stock input.conf: input-hog {' -> '.join(stock['hog']) or 'never probed'}; "
                   f"the kernel {'finished' if stock['paired'] else 'did not finish'} pairing it "
                   f"({'encrypted' if stock['encrypted'] else 'never encrypted'}); {stock['summary']}")
        with input_conf(rig, "[General]\nLEAutoSecurity=false\n"):
            strict = attempt(rig)
        assert "connected" not in strict["hog"], f"LEAutoSecurity=false: input-hog connected: {strict['hog']}"
        assert "input-hog profile accept failed for " + FAKE_ADDRESS in strict["log"], \
            "LEAutoSecurity=false: bluetoothd did not refuse the HoG profile (was the HID service seen?)"
        rig.figure(f"LEAutoSecurity=false: input-hog {' -> '.join(strict['hog']) or 'never left disconnected'}; "
                   f"{strict['summary']}")
        rig.figure(f"control, no bridge: the look-alike's keyboard appeared {keyboard_without_the_bridge(rig)}")
    finally:
        unpair(rig, FAKE, FAKE_ADDRESS)  # later scenarios expect one controller
        rig.restart_bluetoothd()


def attempt(rig) -> dict:
    """`pair` of the look-alike under a fresh bluetoothd -d, watched: checks, and what was seen."""
    rig.restart_bluetoothd(debug=True)
    wake_paired_controllers(rig)
    rig.controller(FAKE, FAKE_ADDRESS, hid=True)
    rig.emulator.request("forget_bonds", name=FAKE)  # a bond the kernel made in an attempt before
    path = device_path(FAKE_ADDRESS, rig.adapter)
    mark = rig.emulator.mark()
    kernel_lines = len(kernel_log())
    watch = DeviceWatch(FAKE_NAME)
    watch.start()
    try:
        result = run_bridge_command(rig, "pair", FAKE_ADDRESS)
        output = result.stdout + result.stderr
        assert result.returncode == 1, f"pair of the look-alike exited {result.returncode}:\n{output}"
        assert "not a Daydream controller" in output and "0x1812" in output, f"pair gave no reason:\n{output}"
        # A keyboard lives only as long as the link (bluetoothd destroys it on disconnect): watch to the end.
        rig.bluez.wait(lambda: DEVICE not in rig.bluez.objects().get(path, {}), 10, "BlueZ to forget the look-alike")
        rig.emulator.wait_event("disconnected", FAKE, since=mark, timeout=10)
    finally:
        watch.stop()
    log = rig.bluetoothd.log_text()
    appeared = [line for line in kernel_log()[kernel_lines:] if FAKE_NAME in line]
    assert not watch.seen, f"a device named after the look-alike existed: {sorted(set(n for _, n in watch.seen))}"
    assert not appeared, "the kernel made a device for the look-alike:\n" + "\n".join(appeared)
    assert "HoG created uHID device" not in log, "bluetoothd created a uHID device for the look-alike"
    assert f"Requesting bonding for {FAKE_ADDRESS}" not in log, "the bridge asked BlueZ to bond the look-alike"
    assert BLOCKED.search(log), "the bridge did not block the look-alike"
    events = [e for e in rig.emulator.events[mark:] if e["name"] == FAKE]
    link = link_time_ms(events)
    return {
        "log": log,
        "hog": hog_states(log),
        "paired": any(e["event"] == "paired" for e in events),
        "encrypted": any(e["event"] == "encryption" and e.get("encrypted") for e in events),
        "summary": f"link up {link} ms; no device named after it in {watch.looks} looks "
                   f"(longest gap {watch.longest_gap * 1000:.0f} ms) nor in the kernel's log",
    }


def wake_paired_controllers(rig) -> None:
    """`pair` connects the paired controllers too. While one is off, the kernel keeps initiating a
    connection to it, and kernel 6.1 pauses discovery meanwhile: the look-alike might not be found.
    Awake, they connect at once."""
    for name, address in rig.controllers.items():
        if name != FAKE and rig.bluez.get_or_none(device_path(address, rig.adapter), DEVICE, "Paired"):
            rig.controller(name, address)


def keyboard_without_the_bridge(rig) -> str:
    """The look-alike bonded and connected by the rig's own agent, stock bluetoothd: its
    keyboard must appear, and the watch must see it. Returns when, after the link came up."""
    rig.restart_bluetoothd()
    rig.controller(FAKE, FAKE_ADDRESS, hid=True)
    rig.emulator.request("forget_bonds", name=FAKE)
    agent = rig.rig_agent()
    watch = DeviceWatch(FAKE_NAME)
    try:
        path = rig.bluez.discover(FAKE_ADDRESS)
        mark = rig.emulator.mark()
        watch.start()
        rig.bluez.call(path, DEVICE, "Pair")
        if not rig.bluez.get(path, DEVICE, "Connected"):
            rig.bluez.call(path, DEVICE, "Connect")
        rig.bluez.wait(lambda: watch.sightings() or None, 30, "the look-alike's keyboard (control)")
        connected = rig.emulator.wait_event("connected", FAKE, since=mark)
        return f"{(watch.seen[0][0] * 1e9 - connected['t_ns']) / 1e6:.0f} ms after the link came up " \
               f"({sorted(set(name for _, name in watch.seen))})"
    finally:
        watch.stop()
        agent.stop()


def hog_states(log: str) -> list[str]:
    """The input-hog profile's states for the look-alike, in order, from bluetoothd -d."""
    states: list[str] = []
    for old, new in HOG_STATE.findall(log):
        if not states:
            states.append(old)
        states.append(new)
    return states


def link_time_ms(events: list[dict]) -> str:
    connected = next((e["t_ns"] for e in events if e["event"] == "connected"), None)
    disconnected = next((e["t_ns"] for e in events if e["event"] == "disconnected"), None)
    if connected is None or disconnected is None:
        return "?"
    return f"{(disconnected - connected) / 1e6:.0f}"


def kernel_log() -> list[str]:
    return subprocess.run(["dmesg"], capture_output=True, text=True, timeout=30).stdout.splitlines()


@contextlib.contextmanager
def input_conf(rig, text: str):
    """bluetoothd's input.conf replaced by `text` (a bind mount in the guest only) while inside."""
    replacement = os.path.join(rig.logs, "input.conf")
    with open(replacement, "w", encoding="utf-8") as file:
        file.write(text)
    subprocess.run(["mount", "--bind", replacement, INPUT_CONF], check=True, timeout=30)
    try:
        yield
    finally:
        subprocess.run(["umount", INPUT_CONF], check=False, timeout=30)
