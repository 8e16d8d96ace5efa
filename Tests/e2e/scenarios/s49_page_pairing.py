"""The editor page pairs and forgets the emulated controller through the running bridge:
the requests the page's Controllers panel makes (its "Find and pair" and "Forget" buttons),
sent to `daydream-bridge ui` over HTTP on loopback with the page's session cookie and Origin.
The browser itself is left out here (Chromium under software emulation is too slow to be
worth it; Tests/browser/controllers_panel.py clicks the same buttons over the fake BlueZ)."""
from __future__ import annotations

import re
import time
import urllib.request

from bluez import DEVICE, device_path
from bridge_helpers import _control_socket, ensure_paired, start_bridge, unpair
from rig import scenario
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"


class Page:
    """The page's side of `daydream-bridge ui`: its session cookie and its Origin."""

    def __init__(self, url: str) -> None:
        self.base = url.split("/?", 1)[0]
        with urllib.request.urlopen(url, timeout=30) as first:
            cookie = first.headers["Set-Cookie"]
        assert cookie, "ui set no session cookie"
        self.cookie = cookie.split(";", 1)[0]

    def get(self, path: str) -> str:
        request = urllib.request.Request(self.base + path, headers={"Cookie": self.cookie})
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read().decode()

    def post_streamed(self, path: str, form: str, timeout: float) -> list[str]:
        """A button's request whose answer streams: the bridge's lines, until its `end` event."""
        request = urllib.request.Request(self.base + path, data=form.encode(), method="POST",
                                         headers={"Cookie": self.cookie, "Origin": self.base})
        lines = []
        with urllib.request.urlopen(request, timeout=timeout) as response:
            event = None
            for raw in response:
                text = raw.decode().rstrip("\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: ") and event == "line":
                    lines.append(text[6:])
                elif text.startswith("data: ") and event == "end":
                    break
        return lines


@scenario("page: the editor page's Controllers panel pairs and forgets the controller through the bridge",
          needs=("run", "ui"))
def page_pairs_and_forgets(rig):
    """No bond on either side; `run` with its control socket, `ui` on it; the panel's
    "Find and pair" request pairs the advertising controller (the bridge's own manager,
    the look-alike check included) and it streams; "Forget" removes it from BlueZ."""
    rig.controller(NAME, ADDRESS)
    rig.bluez.remove_all_devices(rig.adapter)
    rig.emulator.request("forget_bonds", name=NAME)
    assert not rig.emulator_state(NAME)["bonds"], "the emulated controller still has a bond"
    path = device_path(ADDRESS, rig.adapter)
    bridge = start_bridge(rig)
    ui = rig.bridge("ui", "--no-open", "--listen", "127.0.0.1:0", "--socket", _control_socket(bridge), name="ui")
    found = wait_until(lambda: re.search(r"Open (http://\S+)", ui.log_text()), timeout=30)
    assert found, f"ui printed no address:\n{ui.log_text()[-2000:]}"
    page = Page(found.group(1))
    try:
        listed = page.get("/api/controllers")
        assert listed.startswith('{"bridge": true'), f"the panel sees no bridge: {listed}"

        mark = rig.emulator.mark()
        started = time.monotonic()
        steps = page.post_streamed("/api/controllers/pair", "", timeout=120)
        rig.figure(f"page: Find and pair -> paired: {time.monotonic() - started:.1f} s")
        assert steps[:2] == ["ok", "looking for an unpaired Daydream controller: hold its home button until the light blinks"] \
            and steps[-1] == f"paired and trusted {ADDRESS}", f"the pairing's steps: {steps}\n{bridge.log_text()[-2000:]}"
        rig.emulator.wait_event("paired", NAME, since=mark, timeout=10)
        assert rig.bluez.get(path, DEVICE, "Paired") and rig.bluez.get(path, DEVICE, "Trusted"), "BlueZ does not show it paired and trusted"
        connected = wait_until(lambda: f'"address": "{ADDRESS}"' in (text := page.get("/api/controllers"))
                               and '"connected": true' in text, timeout=60)
        assert connected, f"the panel does not list it connected: {page.get('/api/controllers')}"

        forgot = page.post_streamed("/api/controllers/forget", f"address={ADDRESS}", timeout=60)
        assert forgot == ["ok", f"forgot {ADDRESS}"], f"forget answered {forgot}"
        gone = wait_until(lambda: not (rig.bluez.get_or_none(path, DEVICE, "Paired") or rig.bluez.get_or_none(path, DEVICE, "Bonded")),
                          timeout=30)
        assert gone, "BlueZ still holds the forgotten controller's bond"
    finally:
        ui.stop()
        bridge.stop()
        # Later scenarios expect the controller paired, with no stale bond on its side.
        unpair(rig, NAME, ADDRESS)
        ensure_paired(rig, NAME, ADDRESS)
