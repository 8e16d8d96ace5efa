"""The guest's side of the host's browser (Tests/e2e/host/page_browser.py): Chromium runs on
the host, where it is fast, and opens the page `daydream-bridge ui` serves in the VM through
QEMU's forward of the host's 127.0.0.1:PORT to the guest's PORT (run.sh sets both up and passes
PORT as E2E_PAGE_PORT). Commands and answers are files in the shared output folder."""
from __future__ import annotations

import glob
import json
import os
import subprocess

from waiting import wait_until

# QEMU's user network: the guest's address, where the host's forward arrives.
GUEST_ADDRESS = "10.0.2.15"


def forwarded_port() -> int:
    """The port run.sh forwards from the host's loopback to the guest, with the guest's network
    interface up at GUEST_ADDRESS (loopback too: `ui` on every address lists it)."""
    port = os.environ.get("E2E_PAGE_PORT", "")
    assert port.isdigit(), "no E2E_PAGE_PORT: run.sh forwards a port to the VM for the host's browser"

    def interfaces() -> list[str]:
        return [name for name in sorted(os.listdir("/sys/class/net")) if os.path.exists(f"/sys/class/net/{name}/device")]
    if not interfaces():
        subprocess.run(["modprobe", "virtio_net"], check=True)
    found = wait_until(interfaces, timeout=30)
    assert found, "the VM has no network interface (run.sh gives it QEMU's user network)"
    for command in (["ip", "link", "set", "lo", "up"], ["ip", "addr", "replace", f"{GUEST_ADDRESS}/24", "dev", found[0]],
                    ["ip", "link", "set", found[0], "up"]):
        subprocess.run(command, check=True, capture_output=True)
    return int(port)


class HostBrowser:
    """Sends the host's browser a command (`command-N.json`) and waits for its answer
    (`answer-N.json`) in the shared folder; a failed answer fails the scenario."""

    def __init__(self) -> None:
        self.exchange = os.path.join(os.environ.get("E2E_OUT", ""), "page")
        assert os.path.isdir(self.exchange), \
            f"no {self.exchange}: run.sh starts the host's browser (Tests/e2e/host/page_browser.py) with it"

    def send(self, what: str, timeout: float, **arguments) -> int:
        """Sends `what`, which the host must finish within `timeout` s; its number."""
        number = len(glob.glob(os.path.join(self.exchange, "command-*.json"))) + 1
        path = os.path.join(self.exchange, f"command-{number}.json")
        with open(path + ".part", "w") as file:
            json.dump(dict(arguments, do=what, timeout=timeout), file)
        os.rename(path + ".part", path)
        return number

    def ask(self, what: str, timeout: float, **arguments) -> dict:
        """The host's answer to `what`, which it must finish within `timeout` s."""
        number = self.send(what, timeout, **arguments)
        answer_path = os.path.join(self.exchange, f"answer-{number}.json")
        # Beyond the host's own timeout: Chromium's start, and the shared folder's delay.
        answered = wait_until(lambda: os.path.exists(answer_path), timeout=timeout + 30)
        assert answered, f"the host's browser did not answer '{what}' within {timeout + 30:.0f} s (see its log)"
        with open(answer_path) as file:
            answer = json.load(file)
        assert answer.get("ok"), f"the host's browser, on '{what}': {answer.get('error')}"
        return answer

    def close(self) -> None:
        """Closes the host's browser, whatever happened before (for a scenario's clean-up)."""
        try:
            self.ask("quit", timeout=30)
        except AssertionError as problem:
            print(f"    the host's browser did not close: {problem}", flush=True)
