#!/usr/bin/python3
"""The host's browser for the page served inside the VM (scenario s49_page_pairing.py).

Chromium is far too slow under the VM's software emulation, so it runs here, on the host, and
opens the page that `daydream-bridge ui` serves in the guest through QEMU's forward of
127.0.0.1:PORT (run.sh sets it up). The guest scenario drives it through files in the shared
output folder: it writes `command-N.json` ({"do": ..., "timeout": s, ...}), this answers
`answer-N.json` ({"ok": true, ...} or {"ok": false, "error": ...}). Commands:

- `start`: starts Chromium (the guest sends it first and reads no answer: an error comes again
  with `open`);
- `open` {url}: loads the page (only http://127.0.0.1:PORT/), waits for the Controllers panel
  to follow the bridge, returns the pairing hint;
- `pair` {address}: clicks "Find and pair a controller", waits for the pairing's last step and
  for the controller's card to show it connected; a screenshot;
- `forget` {address}: clicks the card's "Forget" and its confirmation, waits for the page to say
  so; a screenshot;
- `quit`: closes the browser.

Chromium starts on the first command (`start`, while the guest starts the bridge), so a run without that scenario costs nothing. A missing
browser is an error answer: the scenario fails, it is never skipped. Screenshots (1366x900) go to
--screenshots. Every wait is for what the page shows or for the guest's file, with a timeout.
Runs until run.sh stops it (SIGTERM) or the exchange folder is removed.
"""

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time

POLL = 0.05
# What the panel's activity line says when a pairing ends (web/controllers-panel.js).
PAIRING_OUTCOMES = ["Paired ", "Not paired", "Pairing could not", "without saying how it went", "Stopped looking"]


class Failed(Exception):
    pass


class PageBrowser:
    """Headless Chromium (selenium) on the page, and the commands the guest sends it."""

    def __init__(self, port: int, screenshots: str) -> None:
        self.port = port
        self.screenshots = screenshots
        self.driver = None
        self.shots = 0
        self.profile = None

    def start(self) -> None:
        if self.driver:
            return
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError:
            raise Failed("python3-selenium is not installed on the host (scripts/install-deps --test)") from None
        chromium, chromedriver = shutil.which("chromium"), shutil.which("chromedriver")
        if not chromium or not chromedriver:
            raise Failed("chromium or chromedriver is not installed on the host (scripts/install-deps --test)")
        self.profile = tempfile.mkdtemp(prefix="e2e-page-browser-")
        options = webdriver.ChromeOptions()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1366,900", f"--user-data-dir={self.profile}/chromium"]:
            options.add_argument(argument)
        options.binary_location = chromium
        self.driver = webdriver.Chrome(options=options, service=Service(chromedriver))
        self.driver.implicitly_wait(0)
        # The window's size leaves the page less than 900 px: the page itself gets 1366x900.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": 1366, "height": 900, "deviceScaleFactor": 1, "mobile": False})

    def stop(self) -> None:
        if self.driver:
            self.driver.quit()
            self.driver = None
        if self.profile:
            shutil.rmtree(self.profile, ignore_errors=True)
            self.profile = None

    # What the page shows ----------------------------------------------------
    def wait(self, what: str, condition, timeout: float):
        """Waits until `condition()` is truthy, checking every 50 ms; fails naming `what`."""
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.support.ui import WebDriverWait
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=POLL).until(lambda _: condition())
        except TimeoutException:
            self.shot("failed")
            raise Failed(f"timed out after {timeout:.0f} s waiting for {what}") from None

    def text(self, element_id: str) -> str:
        from selenium.webdriver.common.by import By
        found = self.driver.find_elements(By.ID, element_id)
        return found[0].text if found else ""

    def card(self, address: str):
        from selenium.webdriver.common.by import By
        cards = self.driver.find_elements(By.CSS_SELECTOR, f'li.controller-card[data-address="{address}"]')
        return cards[0] if cards else None

    def card_field(self, address: str, name: str) -> str | None:
        from selenium.webdriver.common.by import By
        card = self.card(address)
        return card.find_element(By.CLASS_NAME, name).text if card else None

    def shot(self, name: str) -> str:
        """A screenshot with the Controllers panel at the top of the window."""
        from selenium.webdriver.common.by import By
        self.shots += 1
        panels = self.driver.find_elements(By.ID, "controllers-panel")
        if panels:
            self.driver.execute_script("arguments[0].scrollIntoView()", panels[0])
        path = os.path.join(self.screenshots, f"page-pairing-{self.shots:02d}-{name}.png")
        self.driver.save_screenshot(path)
        return os.path.basename(path)

    # The guest's commands ---------------------------------------------------
    def open(self, url: str, timeout: float) -> dict:
        if not url.startswith(f"http://127.0.0.1:{self.port}/"):
            raise Failed(f"only the forwarded loopback address is opened, not {url!r}")
        started = time.monotonic()
        self.start()
        self.driver.set_page_load_timeout(timeout)
        self.driver.get(url)
        note = self.wait("the Controllers panel to follow the bridge",
                         lambda: "no controller yet" in (t := self.text("controllers-note")) and t, timeout)
        return {"seconds": round(time.monotonic() - started, 1), "note": note, "hint": self.text("pair-hint")}

    def pair(self, address: str, timeout: float) -> dict:
        from selenium.webdriver.common.by import By
        started = time.monotonic()
        self.driver.find_element(By.ID, "pair-new").click()
        said = self.wait("the page to say how the pairing went",
                         lambda: any(outcome in (t := self.text("controllers-activity")) for outcome in PAIRING_OUTCOMES) and t, timeout)
        steps = self.text("pair-log").splitlines()
        paired = round(time.monotonic() - started, 1)
        if not steps or steps[-1] != f"paired and trusted {address}":
            return {"steps": steps, "said": said, "seconds": paired, "screenshot": self.shot("not-paired")}
        self.wait(f"{address}'s card to show it connected", lambda: self.card_field(address, "link") == "connected", timeout)
        # What the bridge reads from the controller once connected: its battery and firmware.
        self.wait(f"{address}'s battery and firmware", lambda: self.card_field(address, "battery") not in (None, "-")
                  and self.card_field(address, "firmware") not in (None, "-"), timeout)
        return {"steps": steps, "said": said, "seconds": paired, "listed": round(time.monotonic() - started, 1),
                "card": {name: self.card_field(address, name)
                         for name in ["family", "controller-name", "address", "link", "battery", "firmware", "profile"]},
                "screenshot": self.shot("paired")}

    def forget(self, address: str, timeout: float) -> dict:
        from selenium.webdriver.common.by import By
        started = time.monotonic()
        card = self.card(address)
        if card is None:
            raise Failed(f"no card for {address} to forget")
        card.find_element(By.CLASS_NAME, "forget").click()
        self.wait("the confirmation", lambda: card.find_element(By.CLASS_NAME, "forget-yes").is_displayed(), timeout)
        card.find_element(By.CLASS_NAME, "forget-yes").click()
        said = self.wait("the page to say it forgot", lambda: f"Forgot {address}" in (t := self.text("controllers-activity")) and t, timeout)
        # The bridge keeps a controller it has seen until it stops: its card stays, not connected.
        self.wait(f"{address}'s card to show it gone", lambda: self.card(address) is None
                  or self.card_field(address, "link") == "not connected", timeout)
        return {"said": said, "seconds": round(time.monotonic() - started, 1), "screenshot": self.shot("forgotten")}

    def run(self, command: dict) -> dict:
        what, timeout = command.get("do"), float(command.get("timeout", 60))
        if what == "start":
            self.start()
            return {}
        if what == "open":
            return self.open(command["url"], timeout)
        if what == "pair":
            return self.pair(command["address"], timeout)
        if what == "forget":
            return self.forget(command["address"], timeout)
        if what == "quit":
            self.stop()
            return {}
        raise Failed(f"unknown command {what!r}")


def write_atomically(path: str, value: dict) -> None:
    with open(path + ".part", "w") as file:
        json.dump(value, file)
    os.rename(path + ".part", path)


def serve(exchange: str, browser: PageBrowser) -> None:
    """Answers the guest's commands in order, until the exchange folder goes away."""
    number = 1
    while os.path.isdir(exchange):
        path = os.path.join(exchange, f"command-{number}.json")
        if not os.path.exists(path):
            time.sleep(POLL)
            continue
        with open(path) as file:
            command = json.load(file)
        try:
            answer = dict(browser.run(command), ok=True)
        except Failed as failure:
            answer = {"ok": False, "error": str(failure)}
        except Exception as error:  # selenium's own errors: the guest gets them, this goes on
            answer = {"ok": False, "error": f"{type(error).__name__}: {error}".strip()}
        print(f"page_browser: {command.get('do')}: {answer}", flush=True)
        write_atomically(os.path.join(exchange, f"answer-{number}.json"), answer)
        number += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exchange", required=True, help="the shared folder of command and answer files")
    parser.add_argument("--port", required=True, type=int, help="the host's forwarded loopback port")
    parser.add_argument("--screenshots", required=True, help="where the screenshots go")
    arguments = parser.parse_args()
    os.makedirs(arguments.exchange, exist_ok=True)
    os.makedirs(arguments.screenshots, exist_ok=True)
    browser = PageBrowser(arguments.port, arguments.screenshots)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        serve(arguments.exchange, browser)
    finally:
        browser.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
