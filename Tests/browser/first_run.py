#!/usr/bin/python3
"""The first run in a real browser, from no config to a saved preset: headless Chromium at
1366x900 driven by selenium, clicking and typing as a user would.

`daydream-bridge ui --replay` runs with no config file anywhere (XDG_CONFIG_HOME and HOME point
into an empty folder); its own bridge replays Tests/Recordings/editor-tour.recording with the
built-in default, so the page has a bridge that runs a profile. The steps:

1. the page offers the presets and names the file it would make;
2. "Gamepad" chosen and created: the file is config/gamepad.toml byte for byte and passes
   check-config; the editor opens on it, and the profiles panel shows the profile new
   controllers start in and the one the bridge runs;
3. a profile added from the "Mouse" preset: appended, nothing before it changed;
4. copied under a new name, then renamed, then removed: each reflected in the file, only the
   lines it must change changed, check-config passing after each; removing the start profile is
   refused, saying why;
5. the copy's focus rules (`applications`) edited from its card and saved.

Each step leaves a screenshot in the output folder. Waits are for what the page shows or the
file holds, never a fixed sleep. Exit status 0 when every step passed, 1 with the failing step's
reason, 77 when the browser is not installed or a system-wide config would be the one edited.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("first_run: skipped: python3-selenium is not installed (apt-get install python3-selenium)")
    sys.exit(SKIP)


class StepFailed(Exception):
    pass


class FirstRunRig:
    """The ui process without a config, the browser, and the config file it makes."""

    def __init__(self, binary, recording, output):
        self.binary = binary
        self.recording = recording
        self.output = output
        self.workdir = tempfile.mkdtemp(prefix="first-run-")
        self.config = os.path.join(self.workdir, "xdg", "daydream-bridge", "config.toml")
        self.shots = 0
        self.ui = None
        self.driver = None

    def start(self):
        home = os.path.join(self.workdir, "home")
        os.mkdir(home)
        environment = dict(os.environ, XDG_RUNTIME_DIR=self.workdir, XDG_CONFIG_HOME=os.path.join(self.workdir, "xdg"), HOME=home)
        self.ui = subprocess.Popen(
            [self.binary, "ui", "--no-open", "--replay", self.recording, "--listen", "127.0.0.1:0"],
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
        # The page's viewport itself 1366x900, as the screenshots are.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1366, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        self.driver.implicitly_wait(0)

    def stop(self):
        if self.driver:
            self.driver.quit()
        if self.ui:
            self.ui.terminate()
            self.ui.wait(timeout=10)
        shutil.rmtree(self.workdir, ignore_errors=True)

    def shot(self, name):
        self.shots += 1
        path = os.path.join(self.output, f"{self.shots:02d}-{name}.png")
        self.driver.save_screenshot(path)
        return path

    def wait(self, what, condition, timeout=30):
        """Waits until `condition(driver)` is truthy, checking every 50 ms; fails naming `what`."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(condition)
        except TimeoutException as error:
            self.shot("failed")
            raise StepFailed(f"timed out waiting for {what}") from error

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def text(self, element_id):
        return self.element(element_id).text

    def file(self):
        try:
            with open(self.config, encoding="utf-8") as config:
                return config.read()
        except FileNotFoundError:
            return None

    def card(self, profile):
        cards = self.driver.find_elements(By.CSS_SELECTOR, f'li.profile-card[data-profile="{profile}"]')
        return cards[0] if cards else None

    def wait_for_file(self, what, condition):
        """Waits until the file's text satisfies `condition`; returns the text."""
        self.wait(what, lambda _: self.file() is not None and condition(self.file()))
        return self.file()

    def check_config(self):
        result = subprocess.run([self.binary, "check-config", self.config], capture_output=True, text=True)
        if result.returncode != 0:
            raise StepFailed(f"check-config refused the file: {result.stdout}{result.stderr}")


def preset_text(name):
    with open(os.path.join(ROOT, "config", name), encoding="utf-8") as preset:
        return preset.read()


def step_offers_presets(rig):
    """No config: the page offers the presets and says where the file will go."""
    rig.driver.get(rig.url)
    rig.wait("the presets", lambda d: d.find_elements(By.ID, "first-run") and d.find_elements(By.CSS_SELECTOR, "#first-run label.preset"))
    titles = [label.find_element(By.TAG_NAME, "strong").text for label in rig.driver.find_elements(By.CSS_SELECTOR, "#first-run label.preset")]
    expected = ["Gamepad", "Mouse", "Presenter", "Media remote", "Gyro shooter", "Emulator with DSU", "TV / Kodi"]
    if titles != expected:
        raise StepFailed(f"the presets offered are {titles}, expected {expected}")
    if rig.text("new-config-path") != rig.config:
        raise StepFailed(f"the page would make {rig.text('new-config-path')!r}, not {rig.config!r}")
    if rig.file() is not None:
        raise StepFailed("a config exists before the user chose anything")
    rig.shot("first-run-presets")
    return f"{len(titles)} presets; the file would be {rig.config}"


def step_create_gamepad(rig):
    """The user picks Gamepad and creates the config: the file is the preset, and it passes the checker."""
    label = next(label for label in rig.driver.find_elements(By.CSS_SELECTOR, "#first-run label.preset") if "Gamepad" in label.text)
    label.click()
    rig.element("create-config").click()
    text = rig.wait_for_file("the config file", lambda text: bool(text))
    if text != preset_text("gamepad.toml"):
        raise StepFailed("the file made is not config/gamepad.toml")
    rig.check_config()
    rig.wait("the editor on the new file", lambda d: [o.text for o in Select(rig.element("profile")).options] == ["gamepad", "racing"])
    rig.wait("the profiles panel", lambda _: rig.card("gamepad") and rig.card("racing"))
    if rig.driver.find_elements(By.ID, "first-run"):
        raise StepFailed("the presets are still offered after the file was made")
    if "new controllers start here" not in rig.card("gamepad").text:
        raise StepFailed(f"the start profile is not marked: {rig.card('gamepad').text!r}")
    rig.wait("the profile the bridge runs", lambda _: "runs the profile gamepad" in rig.text("running-profile")
             and "the bridge runs it now" in rig.card("gamepad").text)
    rig.shot("created-gamepad")
    return f"{rig.config} is config/gamepad.toml; check-config passes; status {rig.text('save-status')!r}"


def profile_action(rig, profile, action, new_name=None):
    """Presses `action` in `profile`'s card, types `new_name` if it asks for one, and confirms."""
    rig.card(profile).find_element(By.CSS_SELECTOR, f'button[data-action="{action}"]').click()
    form = rig.wait(f"the {action} form of {profile}", lambda _: rig.card(profile).find_elements(By.CSS_SELECTOR, "form.name-form"))[0]
    if new_name is not None:
        field = form.find_element(By.CSS_SELECTOR, "input.new-name")
        field.clear()
        field.send_keys(new_name)
    form.find_element(By.CSS_SELECTOR, "button.confirm").click()


def step_add_mouse(rig):
    """A profile added from the Mouse preset: its tables appended, every line before it kept."""
    before = rig.file()
    Select(rig.element("add-preset")).select_by_visible_text("Mouse")
    name = rig.element("add-name")
    if name.get_attribute("value") != "mouse":
        raise StepFailed(f"the name offered for the Mouse preset's profile is {name.get_attribute('value')!r}")
    rig.element("add-profile-button").click()
    text = rig.wait_for_file("the mouse profile in the file", lambda text: "[profile.mouse]" in text)
    if not text.startswith(before + "\n[profile.mouse]\n") or "[profile.mouse.chords]" not in text or "[profile.reader]" in text:
        raise StepFailed(f"the file after adding mouse:\n{text[len(before) - 40:]}")
    rig.check_config()
    rig.wait("mouse in the panel and the editor", lambda _: rig.card("mouse") and "mouse" in [o.text for o in Select(rig.element("profile")).options])
    rig.shot("added-mouse")
    return f"{len(text) - len(before)} bytes appended; status {rig.text('profile-status')!r}"


def step_copy_rename_remove(rig):
    """The mouse profile copied as desk, desk renamed office, office removed: each in the file."""
    before = rig.file()
    profile_action(rig, "mouse", "copy", "desk")
    copied = rig.wait_for_file("the copy in the file", lambda text: "[profile.desk]" in text)
    if not copied.startswith(before + "\n[profile.desk]\n") or "[profile.desk.chords]" not in copied:
        raise StepFailed(f"the file after the copy:\n{copied[len(before) - 40:]}")
    rig.check_config()
    rig.wait("desk in the panel", lambda _: rig.card("desk"))
    rig.shot("copied-desk")

    profile_action(rig, "desk", "rename", "office")
    renamed = rig.wait_for_file("the new name in the file", lambda text: "[profile.office]" in text)
    if renamed != copied.replace("[profile.desk", "[profile.office"):
        raise StepFailed(f"the rename changed more than the headers:\n{renamed[len(before):]}")
    rig.check_config()
    rig.wait("office in the panel", lambda _: rig.card("office") and not rig.card("desk"))
    rig.shot("renamed-office")

    profile_action(rig, "office", "remove")
    removed = rig.wait_for_file("office gone from the file", lambda text: "[profile.office" not in text)
    if removed != before:
        raise StepFailed(f"the file after the removal is not the file before the copy:\n{removed[len(before) - 40:]}")
    rig.check_config()
    rig.wait("office gone from the panel", lambda _: not rig.card("office"))
    rig.shot("removed-office")

    rig.card("gamepad").find_element(By.CSS_SELECTOR, 'button[data-action="remove"]').click()
    rig.wait("the refusal to remove the start profile", lambda _: "start in" in rig.text("profile-status"))
    if rig.file() != before:
        raise StepFailed("refusing to remove the start profile changed the file")
    rig.shot("start-profile-kept")
    return f"copied, renamed, removed; the file is back to its bytes; the start profile kept: {rig.text('profile-status')!r}"


def step_focus_rules(rig):
    """The mouse profile's focus rules, edited from its card and saved."""
    before = rig.file()
    rig.card("mouse").find_element(By.CSS_SELECTOR, "button.edit-rules").click()
    rig.wait("the form on applications", lambda _: "applications in mouse" in rig.text("editing"))
    value = rig.element("value")
    value.clear()
    value.send_keys('["firefox"]')
    rig.element("save").click()
    text = rig.wait_for_file("the focus rules in the file", lambda text: 'applications = ["firefox"]' in text)
    head, tail = before.split("[profile.mouse]\n", 1)
    rules_line = [line for line in text.split("\n") if line.startswith("applications")]
    if not text.startswith(head + "[profile.mouse]\n") or rules_line != ['applications = ["firefox"]'] or len(text) != len(before) + len(rules_line[0]) + 1:
        raise StepFailed(f"the focus rules were saved as:\n{text[len(head):]}")
    rig.check_config()
    rig.wait("the rules in mouse's card", lambda _: "firefox" in rig.card("mouse").find_element(By.CSS_SELECTOR, ".focus-rules").text)
    rig.shot("focus-rules")
    return f"mouse's card: {rig.card('mouse').find_element(By.CSS_SELECTOR, '.focus-rules').text!r}"


STEPS = [step_offers_presets, step_create_gamepad, step_add_mouse, step_copy_rename_remove, step_focus_rules]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the daydream-bridge to test (its page is found beside it)")
    parser.add_argument("--recording", default=os.path.join(ROOT, "Tests", "Recordings", "editor-tour.recording"))
    parser.add_argument("--output", required=True, help="where the screenshots and ui.log go")
    arguments = parser.parse_args()
    for program in ["chromium", "chromedriver"]:
        if not shutil.which(program):
            print(f"first_run: skipped: {program} is not installed (apt-get install chromium chromium-driver)")
            return SKIP
    if os.path.exists("/etc/daydream-bridge/config.toml"):
        print("first_run: skipped: /etc/daydream-bridge/config.toml exists, so ui would edit it rather than start from a preset")
        return SKIP
    os.makedirs(arguments.output, exist_ok=True)
    for old in os.listdir(arguments.output):
        if old.endswith(".png"):
            os.remove(os.path.join(arguments.output, old))
    rig = FirstRunRig(os.path.abspath(arguments.binary), os.path.abspath(arguments.recording), arguments.output)
    try:
        rig.start()
        for step in STEPS:
            print(f"first_run: {step.__name__}: {step(rig)}", flush=True)
    except StepFailed as failure:
        print(f"first_run: FAILED: {failure}", flush=True)
        return 1
    finally:
        rig.stop()
    print(f"first_run: passed; screenshots in {arguments.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
