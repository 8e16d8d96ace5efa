"""bluetoothd is killed and comes back: the bridge follows it, and its D-Bus API says so."""
from __future__ import annotations

import os
import time

from bridge_helpers import ensure_paired, gamepad, play_and_read, start_bridge, wait_streaming
from input_devices import expect_frames, wait_frames
from rig import scenario
from timeline_texts import TAP_CLICK
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
# How long the link must hold after the reconnect, without a flap.
HOLD_S = 6

HOLD = """
at 0ms    press volume-up
at 300ms  end
"""


# The controller's object in the bridge's D-Bus API, and what gdbus monitor prints for its changes.
CONTROLLER_PATH = "/org/daydream_bridge/controller/" + ADDRESS.replace(":", "_")
CHANGED = f"{CONTROLLER_PATH}: org.freedesktop.DBus.Properties.PropertiesChanged ('org.daydream_bridge.Controller1', "


def changes(monitor) -> list[str]:
    """The controller's PropertiesChanged lines gdbus monitor printed so far, in order."""
    return [line.strip()[len(CHANGED):] for line in monitor.log_text().splitlines() if line.strip().startswith(CHANGED)]


def connected_changes(monitor) -> list[str]:
    return [change for change in changes(monitor) if "'Connected'" in change]


@scenario("bridge: bluetoothd killed and restarted -> the bridge reconnects", needs=("run",))
def bridge_bluetoothd_restart(rig):
    """SIGKILL bluetoothd with a button held: the button is released, the bridge lives,
    and once bluetoothd is back it reconnects and events flow on the same node. The bridge
    offers its D-Bus API on a session bus of its own: gdbus monitor sees the battery reading,
    the disconnect and the reconnect arrive as PropertiesChanged."""
    ensure_paired(rig, NAME, ADDRESS)
    socket = "/run/e2e-session-bus"
    bus = rig.program("session-bus", ["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--address=unix:path={socket}"])
    assert wait_until(lambda: os.path.exists(socket) or not bus.alive(), timeout=20) and bus.alive(), \
        f"the session bus did not start:\n{bus.log_text()}"
    address = f"unix:path={socket}"
    # Subscribed before the bridge exists: its match names the bus name, whoever takes it.
    monitor = rig.program("dbus-monitor", ["gdbus", "monitor", "--address", address, "--dest", "org.daydream_bridge"])
    assert wait_until(lambda: "does not have an owner" in monitor.log_text(), timeout=20), \
        f"gdbus monitor did not start:\n{monitor.log_text()}"
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = address
    try:
        mark = rig.emulator.mark()
        bridge = start_bridge(rig)
    finally:
        del os.environ["DBUS_SESSION_BUS_ADDRESS"]
    assert wait_until(lambda: "is owned by" in monitor.log_text(), timeout=20), \
        f"the bridge did not take org.daydream_bridge:\n{monitor.log_text()}\n{bridge.log_text()[-2000:]}"
    pad = gamepad(rig)
    wait_streaming(rig, NAME, since=mark)
    # The emulated controller's battery reads 87 %; its object appeared connected (InterfacesAdded).
    assert wait_until(lambda: "{'Battery': <byte 0x57>}, @as [])" in changes(monitor), timeout=60), \
        f"the battery reading did not arrive as PropertiesChanged: {changes(monitor)}"
    assert not connected_changes(monitor), f"the link changed before the test touched it: {changes(monitor)}"

    _, frames = play_and_read(rig, NAME, HOLD, [pad])
    expect_frames(frames[pad], [["BTN_TR 1"]], "volume-up held")
    rig.kill_bluetoothd()
    released = wait_frames(pad, 1, timeout=15)
    assert bridge.alive(), "the bridge died with bluetoothd"
    expect_frames(released, [["BTN_TR 0"]], "release when bluetoothd vanished")
    # Let go, so the reconnected stream starts with nothing held.
    rig.emulator.request("play", name=NAME, text="at 0ms release volume-up\nat 10ms end", label="let go")

    mark = rig.emulator.mark()
    rig.start_bluetoothd()
    wait_streaming(rig, NAME, since=mark, timeout=90)
    assert wait_until(lambda: connected_changes(monitor)
                      == ["{'Connected': <false>}, @as [])", "{'Connected': <true>}, @as [])"], timeout=30), \
        f"the disconnect and the reconnect did not arrive as PropertiesChanged: {changes(monitor)}"
    # Not one flap: once streaming again, the link holds (no disconnect, no second
    # subscription; the bridge used to tear down a link that still delivered, up to
    # five times, after bluetoothd dropped its connected flag).
    time.sleep(HOLD_S)
    rig.emulator.poll()
    events = [e for e in rig.emulator.events[mark:] if e.get("name") == NAME]
    first = next(i for i, e in enumerate(events) if e["event"] == "subscribed" and e.get("on"))
    flaps = [e for e in events[first + 1:]
             if e["event"] == "disconnected" or (e["event"] == "subscribed" and e.get("on"))]
    assert not flaps, "the link flapped after bluetoothd came back: " + \
        "; ".join(f"{e['event']}{' on' if e.get('on') else ''}" for e in flaps)
    assert bridge.alive(), "the bridge died while bluetoothd restarted"
    _, frames = play_and_read(rig, NAME, TAP_CLICK, [pad])
    expect_frames(frames[pad], [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]], "after bluetoothd came back")
    pad.close()
