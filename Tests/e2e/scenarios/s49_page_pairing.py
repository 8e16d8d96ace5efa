"""The editor page pairs and forgets the emulated controller through the running bridge, in a
real browser clicking as a player would: `daydream-bridge ui` serves the page in the VM on every
address (the phone mode), and headless Chromium on the host (Tests/e2e/host/page_browser.py;
under the VM's software emulation Chromium is far too slow) opens it through QEMU's forward of
the host's loopback, clicks the Controllers panel's "Find and pair", then "Forget" and its
confirmation. The guest checks each step in BlueZ and the emulator. Screenshots (1366x900) of
the panel with the controller paired and forgotten go to the output's logs."""
from __future__ import annotations

import re
import time

from bluez import DEVICE, device_path
from bridge_helpers import _control_socket, ensure_paired, start_bridge, unpair
from host_browser import HostBrowser, forwarded_port
from rig import scenario
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"


@scenario("page: the editor page's Controllers panel pairs and forgets the controller through the bridge",
          needs=("run", "ui"))
def page_pairs_and_forgets(rig):
    """No bond on either side; `run` with its control socket, `ui` on it on every address, the
    host's Chromium on the page: "Find and pair" pairs the advertising controller through the
    bridge's own manager (the look-alike check included), the panel lists it connected;
    "Forget" and its confirmation remove it from BlueZ."""
    browser = HostBrowser()
    browser.send("start", timeout=60)  # Chromium starts on the host while the bridge starts here
    port = forwarded_port()
    rig.controller(NAME, ADDRESS)
    rig.bluez.remove_all_devices(rig.adapter)
    rig.emulator.request("forget_bonds", name=NAME)
    assert not rig.emulator_state(NAME)["bonds"], "the emulated controller still has a bond"
    path = device_path(ADDRESS, rig.adapter)
    bridge = start_bridge(rig)
    ui = rig.bridge("ui", "--no-open", "--listen", f"0.0.0.0:{port}", "--socket", _control_socket(bridge), name="ui")
    try:
        # On every address `ui` prints one line per address; the host opens the loopback one,
        # which its forward reaches (the Host check accepts each address of the machine).
        found = wait_until(lambda: re.search(rf"Open (http://127\.0\.0\.1:{port}/\S+)", ui.log_text()), timeout=30)
        assert found, f"ui printed no loopback address:\n{ui.log_text()[-2000:]}"
        opened = browser.ask("open", timeout=60, url=found.group(1))
        rig.figure(f"page: the host's Chromium loaded the VM's page in {opened['seconds']} s")
        assert "home button" in opened["hint"], f"the pairing hint says {opened['hint']!r}"

        mark = rig.emulator.mark()
        paired = browser.ask("pair", timeout=90, address=ADDRESS)
        rig.figure(f"page: Find and pair clicked -> paired: {paired['seconds']} s, listed connected: {paired.get('listed')} s")
        steps = paired["steps"]
        assert steps[:1] == ["looking for an unpaired Daydream controller: hold its home button until the light blinks"] \
            and steps[-1] == f"paired and trusted {ADDRESS}", \
            f"the pairing's steps on the page: {steps}, it said {paired['said']!r}\n{bridge.log_text()[-2000:]}"
        rig.emulator.wait_event("paired", NAME, since=mark, timeout=10)
        assert rig.bluez.get(path, DEVICE, "Paired") and rig.bluez.get(path, DEVICE, "Trusted"), "BlueZ does not show it paired and trusted"
        # The emulator's battery level and firmware revision (emulator/daydream_device.py, gatt_table.py).
        assert paired["card"] == {"family": "Daydream", "controller-name": "Daydream controller", "address": ADDRESS,
                                  "link": "connected", "battery": "87%", "firmware": "1.3.5", "profile": "gamepad"}, \
            f"its card shows {paired['card']}"

        forgot = browser.ask("forget", timeout=60, address=ADDRESS)
        gone = wait_until(lambda: not (rig.bluez.get_or_none(path, DEVICE, "Paired") or rig.bluez.get_or_none(path, DEVICE, "Bonded")),
                          timeout=30)
        assert gone, f"BlueZ still holds the forgotten controller's bond (the page said {forgot['said']!r})"
        rig.figure(f"page: Forget and its confirmation clicked -> the page said so: {forgot['seconds']} s")
        # Stopped (SIGTERM, as Ctrl-C) with the page still open and its event stream waiting.
        code = ui.stop()
        assert code == 0, f"ui exited {code} when stopped with the page open:\n{ui.log_text()[-600:]}"
        rig.figure(f"page: screenshots {paired['screenshot']}, {forgot['screenshot']} in the output's logs")
    finally:
        browser.close()
        ui.stop()
        bridge.stop()
        # Later scenarios expect the controller paired, with no stale bond on its side.
        unpair(rig, NAME, ADDRESS)
        ensure_paired(rig, NAME, ADDRESS)
