#!/usr/bin/python3
"""The editor page's controllers panel in a real browser, over the fake bluetoothd.

A private dbus-daemon carries Tests/fake-bluez/fake_bluez.py with one paired Daydream controller
(A) and one unpaired one in range (B); `daydream-bridge run` follows it (its devices printed, as
there is no /dev/uinput here) with a control socket, and `daydream-bridge ui` serves the page on
that socket. Headless Chromium, driven by selenium, clicks as a user would:

1. the panel lists A: family, name, address, connected, battery, firmware and profile;
2. A switched to another profile with "Switch now": the bridge runs it (the card and the bridge's
   own `profile` answer say so);
3. A recentred: the page says it was; A calibrated (held still: the rig's packets at rest),
   the progress bar full and the bias shown;
4. "Find and pair a controller": the steps shown as they come, B paired and trusted in BlueZ,
   then listed as connected;
5. B forgotten (with the confirmation): gone from BlueZ, and the page says so;
6. the bridge stopped: the panel says none runs and how to start it.

Each step leaves a screenshot (1366x900) in the output folder. Waits are for what the page
shows, never a fixed sleep. Exit status 0 when every step passed, 1 with the failing step's
reason, 77 when the browser or the fake's Python modules are missing.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

SKIP = 77
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAKE = os.path.join(ROOT, "Tests", "fake-bluez", "fake_bluez.py")
PAIRED = "C0:DD:EE:00:00:01"
UNPAIRED = "C0:DD:EE:00:00:02"
# A controller at rest (Tests/BlueZTests/ManagerRig.swift's restPacket): the bridge takes a
# controller that sends nothing for 0.5 s as gone, so the rig keeps the paired ones talking.
REST = "5BEBFFB825FDB000041000B00000000000000000"
UUIDS = ["0000fe55-0000-1000-8000-00805f9b34fb", "0000fef5-0000-1000-8000-00805f9b34fb"]

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("controllers_panel: skipped: python3-selenium is not installed (apt-get install python3-selenium)")
    sys.exit(SKIP)


class StepFailed(Exception):
    pass


BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>custom</type>
  <listen>unix:path={directory}/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/>
    <allow send_type="method_call"/><allow send_type="signal"/><allow send_type="method_return"/><allow send_type="error"/>
    <allow receive_type="method_call"/><allow receive_type="signal"/><allow receive_type="method_return"/><allow receive_type="error"/>
  </policy>
</busconfig>
"""


class PanelRig:
    """The bus, the fake bluetoothd, the bridge, ui and the browser."""

    def __init__(self, binary, output):
        self.binary = binary
        self.output = output
        self.workdir = tempfile.mkdtemp(prefix="controllers-panel-")
        self.socket = os.path.join(self.workdir, "control", "socket")
        self.shots = 0
        self.bus = self.fake = self.bridge = self.ui = self.driver = None
        self.next_id = 0
        self.lock = threading.Lock()
        self.talking = {PAIRED}
        self.stopping = threading.Event()

    def start(self):
        config = os.path.join(self.workdir, "bus.conf")
        with open(config, "w") as written:
            written.write(BUS_CONFIG.format(directory=self.workdir))
        self.bus = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--nopidfile", "--print-address"],
                                    stdout=subprocess.PIPE, text=True)
        address = self.bus.stdout.readline().strip()
        self.fake = subprocess.Popen(["/usr/bin/python3", FAKE, "--address", address], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        if json.loads(self.fake.stdout.readline()) != {"ready": True}:
            raise StepFailed("the fake bluetoothd did not start")
        self.command("add_adapter")
        self.command("add_device", address=PAIRED, name="Daydream controller", paired=True, uuids=UUIDS)
        self.command("add_device", address=UNPAIRED, name="Daydream controller", paired=False, uuids=UUIDS)
        threading.Thread(target=self.keep_talking, daemon=True).start()
        environment = dict(os.environ, DAYDREAM_DBUS_ADDRESS=address, XDG_RUNTIME_DIR=self.workdir, XDG_STATE_HOME=self.workdir)
        self.bridge = subprocess.Popen(
            [self.binary, "run", "--print", "--socket", self.socket, "--config", os.path.join(ROOT, "config", "default.toml")],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.output, "bridge.log"), "wb"), env=environment)
        self.ui = subprocess.Popen(
            [self.binary, "ui", "--no-open", "--listen", "127.0.0.1:0", "--socket", self.socket,
             "--config", os.path.join(ROOT, "config", "default.toml")],
            stdout=subprocess.PIPE, stderr=open(os.path.join(self.output, "ui.log"), "wb"), env=environment, text=True)
        line = self.ui.stdout.readline().strip()
        if not line.startswith("Open http://"):
            raise StepFailed(f"ui printed {line!r} instead of its address (see ui.log)")
        self.url = line.split(" ", 1)[1]
        options = webdriver.ChromeOptions()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1366,900", f"--user-data-dir={self.workdir}/chromium"]:
            options.add_argument(argument)
        options.binary_location = shutil.which("chromium")
        self.driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
        self.driver.implicitly_wait(0)

    def keep_talking(self):
        """Sends a packet at rest for each controller in `talking` every 20 ms, as a controller
        streams (60 a second when it moves); until it is connected, the fake has nothing to send on."""
        while not self.stopping.wait(0.02):
            for address in list(self.talking):
                try:
                    self.command("send", address=address, hex=REST)
                except StepFailed:
                    pass

    def command(self, command, **arguments):
        """One command to the fake bluetoothd; its result."""
        with self.lock:
            self.next_id += 1
            self.fake.stdin.write(json.dumps(dict(arguments, cmd=command, id=self.next_id)) + "\n")
            self.fake.stdin.flush()
            answer = json.loads(self.fake.stdout.readline())
        if not answer.get("ok"):
            raise StepFailed(f"the fake bluetoothd failed {command}: {answer.get('error')}")
        return answer.get("result")

    def stop(self):
        self.stopping.set()
        if self.driver:
            self.driver.quit()
        for process in [self.ui, self.bridge]:
            if process and process.poll() is None:
                process.terminate()
                process.wait(timeout=10)
        if self.fake:
            self.fake.stdin.close()
            self.fake.wait(timeout=10)
        if self.bus:
            self.bus.terminate()
            self.bus.wait(timeout=10)
        shutil.rmtree(self.workdir, ignore_errors=True)

    def shot(self, name):
        self.shots += 1
        self.driver.save_screenshot(os.path.join(self.output, f"{self.shots:02d}-{name}.png"))

    def wait(self, what, condition, timeout=30):
        """Waits until `condition(driver)` is truthy, checking every 50 ms; fails naming `what`."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(condition)
        except TimeoutException as error:
            self.shot("failed")
            raise StepFailed(f"timed out waiting for {what}") from error

    def card(self, address):
        cards = self.driver.find_elements(By.CSS_SELECTOR, f'li.controller-card[data-address="{address}"]')
        return cards[0] if cards else None

    def field(self, address, name):
        card = self.card(address)
        return card.find_element(By.CLASS_NAME, name).text if card else None

    def activity(self):
        return self.driver.find_element(By.ID, "controllers-activity").text

    def device(self, address):
        return self.command("state")["devices"].get(address)


def step_lists(rig):
    rig.driver.get(rig.url)
    rig.wait(f"{PAIRED} connected in the panel", lambda d: rig.field(PAIRED, "link") == "connected")
    rig.wait("its battery and firmware", lambda d: rig.field(PAIRED, "battery") == "85%" and rig.field(PAIRED, "firmware") == "1.3.5")
    shown = {name: rig.field(PAIRED, name) for name in ["family", "controller-name", "address", "profile"]}
    if shown != {"family": "Daydream", "controller-name": "Daydream controller", "address": PAIRED, "profile": "gamepad"}:
        raise StepFailed(f"the card shows {shown}")
    rig.shot("listed")
    return f"listed: {shown}, connected, 85%, firmware 1.3.5"


def step_switch_profile(rig):
    card = rig.card(PAIRED)
    Select(card.find_element(By.CLASS_NAME, "profile-choice")).select_by_value("mouse")
    card.find_element(By.CLASS_NAME, "switch-profile").click()
    rig.wait("the card to show the profile the bridge runs", lambda d: rig.field(PAIRED, "profile") == "mouse")
    said = rig.wait("the page to say so", lambda d: "switched to mouse" in rig.activity() and rig.activity())
    running = subprocess.run([rig.binary, "profile", "--socket", rig.socket], capture_output=True, text=True).stdout
    if "mouse" not in running:
        raise StepFailed(f"the bridge says it runs {running!r}")
    rig.shot("switched")
    return f"switched: {said!r}; the bridge: {running.strip()!r}"


def step_recentre(rig):
    rig.card(PAIRED).find_element(By.CLASS_NAME, "recenter").click()
    said = rig.wait("the page to say it recentred", lambda d: "recentred" in rig.activity() and rig.activity())
    return f"recentred: {said!r}"


def step_calibrate(rig):
    card = rig.card(PAIRED)
    card.find_element(By.CLASS_NAME, "calibrate").click()
    text = rig.wait("the calibration's result", lambda d: (t := rig.field(PAIRED, "calibration-text")).startswith("Calibrated") and t)
    progress = card.find_element(By.TAG_NAME, "progress").get_attribute("value")
    if progress != "100":
        raise StepFailed(f"the progress bar shows {progress} after {text!r}")
    rig.shot("calibrated")
    return f"calibrated: {text!r}, progress {progress}"


def step_pair(rig):
    hint = rig.driver.find_element(By.ID, "pair-hint").text
    if "home button" not in hint:
        raise StepFailed(f"the hint says {hint!r}")
    rig.talking.add(UNPAIRED)
    rig.driver.find_element(By.ID, "pair-new").click()
    rig.wait("the pairing's steps", lambda d: f"paired and trusted {UNPAIRED}" in d.find_element(By.ID, "pair-log").text, timeout=60)
    steps = rig.driver.find_element(By.ID, "pair-log").text.splitlines()
    device = rig.device(UNPAIRED)
    if not (device and device["Paired"] and device["Trusted"]):
        raise StepFailed(f"BlueZ has {device}")
    rig.wait(f"{UNPAIRED} listed as connected", lambda d: rig.field(UNPAIRED, "link") == "connected")
    rig.shot("paired")
    return f"paired, steps {steps}; activity {rig.activity()!r}"


def step_forget(rig):
    card = rig.card(UNPAIRED)
    card.find_element(By.CLASS_NAME, "forget").click()
    rig.wait("the confirmation", lambda d: card.find_element(By.CLASS_NAME, "forget-yes").is_displayed())
    rig.talking.discard(UNPAIRED)
    card.find_element(By.CLASS_NAME, "forget-yes").click()
    said = rig.wait("the page to say it forgot", lambda d: f"Forgot {UNPAIRED}" in rig.activity() and rig.activity())
    if rig.device(UNPAIRED) is not None:
        raise StepFailed("BlueZ still knows the forgotten controller")
    rig.shot("forgotten")
    return f"forgotten: {said!r}"


def step_no_bridge(rig):
    rig.bridge.send_signal(signal.SIGTERM)
    rig.bridge.wait(timeout=10)
    note = rig.wait("the panel to say no bridge runs",
                    lambda d: "No bridge is running" in d.find_element(By.ID, "controllers-note").text
                    and d.find_element(By.ID, "controllers-note").text)
    if "systemctl --user start daydream-bridge" not in note or not rig.driver.find_element(By.ID, "pair-new").get_attribute("disabled"):
        raise StepFailed(f"the panel says {note!r}, pairing enabled")
    rig.shot("no-bridge")
    return f"no bridge: {note!r}"


STEPS = [step_lists, step_switch_profile, step_recentre, step_calibrate, step_pair, step_forget, step_no_bridge]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the daydream-bridge to test (its page is found beside it)")
    parser.add_argument("--output", required=True, help="where the screenshots and logs go")
    arguments = parser.parse_args()
    for program in ["chromium", "chromedriver", "dbus-daemon"]:
        if not shutil.which(program):
            print(f"controllers_panel: skipped: {program} is not installed")
            return SKIP
    if subprocess.run(["/usr/bin/python3", "-c", "import dbus, gi"], capture_output=True).returncode != 0:
        print("controllers_panel: skipped: python3-dbus and python3-gi are not installed")
        return SKIP
    os.makedirs(arguments.output, exist_ok=True)
    for old in os.listdir(arguments.output):
        if old.endswith(".png"):
            os.remove(os.path.join(arguments.output, old))
    rig = PanelRig(os.path.abspath(arguments.binary), arguments.output)
    try:
        rig.start()
        for step in STEPS:
            print(f"controllers_panel: {step.__name__}: {step(rig)}", flush=True)
    except StepFailed as failure:
        print(f"controllers_panel: FAILED: {failure}", flush=True)
        return 1
    finally:
        rig.stop()
    print(f"controllers_panel: passed; screenshots in {arguments.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
