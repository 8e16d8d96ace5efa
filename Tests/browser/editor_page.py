#!/usr/bin/python3
"""The editor page in a real browser: headless Chromium driven by selenium.

`daydream-bridge ui --replay` plays Tests/Recordings/editor-tour.recording (click held, a finger
circling, app held, round and round) with a copy of config/default.toml. The steps:

1. the file ui gave a stand-in xdg-open (no token in its arguments) leads the browser to the page,
   which loads and follows the replaying bridge;
2. the replayed click lights the click button;
3. a replayed press of app selects app (press to select);
4. KEY_SPACE chosen from the searchable list and saved: the file differs only in that value,
   check-config accepts it, and the page's bridge then sends KEY_SPACE for app;
5. the touchpad made a trackpad from its modes and options: the preview's pointer moves; a
   chord made of two ticked buttons and an action;
   a bad value shows its diagnostic beside the field that holds it, with line and column, file untouched; a
   save over a file another program changed since the page loaded it is refused, with the reason;
   neither leaves "Saving..." in the status; after a save, and after a control is chosen in the
   table, press to select stays off, so the replay's presses leave the chosen setting in the form;
6. every control has a label and the keyboard reaches each one;
7. a save without the session's cookie (403) says the session ended and how to get a new one; a
   save while ui is stopped (SIGSTOP) is given up after the page's 10 s, saying so; a save after
   ui ended says it cannot be reached, in the page's words, not the browser's; each leaves a
   status that is not "Saving..." and Save enabled again;
8. the printed one-time address works once, then 403; without the session's cookie: 403; a POST
   from another origin: 403, file untouched.

Each step leaves a screenshot in the output folder. Waits are for what the page shows (an
attribute, a text, an observed class change), never a fixed sleep. Exit status 0 when every
step passed, 1 with the failing step's reason, 77 when the browser is not installed.
"""

import argparse
import http.server
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request

SKIP = 77
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("editor_page: skipped: python3-selenium is not installed (apt-get install python3-selenium)")
    sys.exit(SKIP)


class StepFailed(Exception):
    pass


class EditorRig:
    """The ui process, the browser, and the files they share."""

    def __init__(self, binary, recording, output):
        self.binary = binary
        self.recording = recording
        self.output = output
        self.workdir = tempfile.mkdtemp(prefix="editor-page-")
        self.config = os.path.join(self.workdir, "config.toml")
        shutil.copyfile(os.path.join(ROOT, "config", "default.toml"), self.config)
        with open(self.config, "rb") as original:
            self.original = original.read()
        self.shots = 0
        self.ui = None
        self.driver = None

    def start(self):
        # A stand-in xdg-open that records what it was given, as every local user could read it.
        bin_directory = os.path.join(self.workdir, "bin")
        os.mkdir(bin_directory)
        self.argv_file = os.path.join(self.workdir, "xdg-open.argv")
        with open(os.path.join(bin_directory, "xdg-open"), "w") as script:
            script.write(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{self.argv_file}.new" && mv "{self.argv_file}.new" "{self.argv_file}"\n')
        os.chmod(os.path.join(bin_directory, "xdg-open"), 0o755)
        environment = dict(os.environ, XDG_RUNTIME_DIR=self.workdir, PATH=bin_directory + ":" + os.environ.get("PATH", "/usr/bin:/bin"))
        self.ui = subprocess.Popen(
            [self.binary, "ui", "--replay", self.recording, "--config", self.config, "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=open(os.path.join(self.output, "ui.log"), "wb"), env=environment, text=True)
        line = self.ui.stdout.readline().strip()
        if not line.startswith("Open http://"):
            raise StepFailed(f"ui printed {line!r} instead of its address (see ui.log)")
        self.url = line.split(" ", 1)[1]
        self.base = self.url.split("/?")[0]
        options = webdriver.ChromeOptions()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1400,1100", f"--user-data-dir={self.workdir}/chromium"]:
            options.add_argument(argument)
        options.binary_location = shutil.which("chromium")
        self.driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
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

    def wait_for_file(self, path, timeout=30):
        """Waits until `path` exists (the stand-in xdg-open has run), checking every 50 ms."""
        try:
            WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda _: os.path.exists(path))
        except TimeoutException as error:
            raise StepFailed(f"timed out waiting for {path}") from error

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def text(self, element_id):
        return self.element(element_id).text

    def file(self):
        with open(self.config, "rb") as changed:
            return changed.read()


def opened_file(rig):
    """What ui gave xdg-open: one argument, a file of the user's own, no token."""
    rig.wait_for_file(rig.argv_file)
    with open(rig.argv_file) as recorded:
        arguments = recorded.read().splitlines()
    if len(arguments) != 1 or "token" in arguments[0] or not os.path.isfile(arguments[0]):
        raise StepFailed(f"xdg-open was given {arguments!r}, not one file without a token")
    if os.stat(arguments[0]).st_mode & 0o777 != 0o600:
        raise StepFailed(f"{arguments[0]} is not mode 0600")
    return arguments[0]


def step_loads(rig):
    # As the desktop's browser would: the file xdg-open was given, which goes on to the page.
    rig.driver.get("file://" + opened_file(rig))
    rig.wait("the page's own address, the one-time token gone", lambda d: d.current_url == rig.base + "/")
    rig.wait("the page to follow the bridge", lambda d: "Following the bridge" in rig.text("bridge-status"))
    rig.wait("the profiles", lambda d: len(Select(rig.element("profile")).options) >= 2)
    # Which buttons the page lit, as it lit them: a class change, however short.
    rig.driver.execute_script("""
        window.lit = [];
        new MutationObserver((changes) => {
          for (const change of changes) {
            if (change.target.classList.contains('pressed')) window.lit.push(change.target.dataset.button);
          }
        }).observe(document.getElementById('controller'), {subtree: true, attributes: true, attributeFilter: ['class']});
    """)
    names = [option.text for option in Select(rig.element("profile")).options]
    rig.shot("loaded")
    return f"loaded, profiles {names}, status {rig.text('bridge-status')!r}"


def step_click_lights(rig):
    rig.wait("the replayed click to light the click button", lambda d: "click" in d.execute_script("return window.lit"))
    presses = rig.element("button-click").get_attribute("data-presses")
    rig.shot("click-lit")
    return f"click lit (presses counted: {presses})"


def step_app_selects(rig):
    """Press to select is on at the start; it selects the next button pressed, then turns off.
    Until that press is app, turn it on again: the replay presses click and app in turn."""
    for attempt in range(1, 5):
        toggle = rig.element("press-to-select")
        if toggle.get_attribute("aria-pressed") != "true":
            toggle.click()
        rig.wait("a pressed button to be selected",
                 lambda d: rig.element("press-to-select").get_attribute("aria-pressed") == "false")
        if rig.text("editing").startswith("app "):
            rig.shot("app-selected")
            return f"app selected by its press (attempt {attempt}); form shows {rig.element('value').get_attribute('value')!r}"
    raise StepFailed(f"four presses selected {rig.text('editing')!r}, never app")


def step_save_key_space(rig):
    action = rig.element("action")
    action.clear()
    action.send_keys("KEY_SPA")
    rig.wait("KEY_SPACE among the choices", lambda d: "KEY_SPACE" in d.execute_script(
        "return [...document.getElementById('choices').options].map((option) => option.value)"))
    choice = rig.driver.execute_script(
        "return [...document.getElementById('choices').options].find((option) => option.value === 'KEY_SPACE').textContent")
    Select(rig.element("choices")).select_by_value("KEY_SPACE")
    if rig.element("value").get_attribute("value") != '"KEY_SPACE"':
        raise StepFailed(f"choosing KEY_SPACE composed {rig.element('value').get_attribute('value')!r}")
    rig.shot("key-space-chosen")
    rig.element("save").click()
    rig.wait("the save to be confirmed", lambda d: "Saved app" in rig.text("save-status"))
    before = rig.original.split(b"\n")
    after = rig.file().split(b"\n")
    changed = [(index + 1, old, new) for index, (old, new) in enumerate(zip(before, after)) if old != new]
    if len(before) != len(after) or len(changed) != 1 or changed[0][2] != b'app = "KEY_SPACE"':
        raise StepFailed(f"the saved file differs in {changed} (lines {len(before)} -> {len(after)})")
    check = subprocess.run([rig.binary, "check-config", rig.config], capture_output=True, text=True)
    if check.returncode != 0:
        raise StepFailed(f"check-config refused the saved file: {check.stdout}{check.stderr}")
    rig.wait("the page's bridge to send KEY_SPACE for app", lambda d: "keyboard EV_KEY KEY_SPACE 1" in d.execute_script(
        "return [...document.querySelectorAll('#event-log li')].map((item) => item.textContent)"))
    rig.shot("key-space-sent")
    return (f"saved: only line {changed[0][0]} changed ({changed[0][1].decode()!r} -> {changed[0][2].decode()!r}); "
            f"check-config: {check.stdout.strip().splitlines()[-1] if check.stdout.strip() else 'ok'}; "
            f"choice shown as {choice!r}; the bridge sent keyboard EV_KEY KEY_SPACE 1")


def save_composed(rig, key, expected):
    """The form composed `expected` for `key`; Save, and wait for the page to confirm it."""
    composed = rig.element("value").get_attribute("value")
    if composed != expected:
        raise StepFailed(f"the {key} form composed {composed!r}, not {expected!r}")
    rig.element("save").click()
    rig.wait(f"the save of {key} to be confirmed", lambda d: f"Saved {key}" in rig.text("save-status"))


def step_touchpad_mode(rig):
    """The touchpad as a trackpad, chosen from its modes: the preview's pointer then moves."""
    rig.driver.find_element(By.CSS_SELECTOR, "tr[data-key='touchpad'] button").click()
    rig.wait("touchpad in the form", lambda d: rig.text("editing").startswith("touchpad "))
    Select(rig.element("mode")).select_by_value("trackpad")
    speed = rig.element("option-speed")
    speed.clear()
    speed.send_keys("2.5")
    # A value typed as TOML (quoted) is kept as it is; a bare word would be quoted.
    rig.element("option-device").send_keys('"mouse"')
    save_composed(rig, "touchpad", '{ mode = "trackpad", speed = 2.5, device = "mouse" }')
    line = next(text for text in rig.file().split(b"\n") if text.startswith(b"touchpad = "))
    rig.wait("the pointer preview to move", lambda d: d.execute_script(
        "return document.getElementById('pointer-dot').getAttribute('cx')") != "80")
    moves = rig.driver.execute_script(
        "return [...document.querySelectorAll('#event-log li')].map((item) => item.textContent).filter((t) => t.startsWith('mouse EV_REL'))")
    rig.shot("touchpad-trackpad")
    return f"saved {line.decode()!r}; the pointer preview moved ({len(moves)} mouse EV_REL lines shown, e.g. {moves[:1]})"


def step_chord(rig):
    """A chord made by ticking two buttons and choosing its action."""
    rig.driver.find_element(By.CSS_SELECTOR, "tr[data-key='chords'] button").click()
    rig.wait("chords in the form", lambda d: rig.text("editing").startswith("chords "))
    for button in ["volume-up", "volume-down"]:
        rig.driver.find_element(By.CSS_SELECTOR, f"input[name='chord-button'][value='{button}']").click()
    rig.element("chord-action").send_keys("KEY_MUTE")
    save_composed(rig, "chords", '{ "volume-up+volume-down" = "KEY_MUTE" }')
    check = subprocess.run([rig.binary, "check-config", rig.config], capture_output=True, text=True)
    if check.returncode != 0:
        raise StepFailed(f"check-config refused the chord: {check.stdout}{check.stderr}")
    line = next(text for text in rig.file().split(b"\n") if text.startswith(b"chords = "))
    rig.shot("chord")
    return f"saved {line.decode()!r}; check-config accepts it"


def settled_status(rig, what, starts="Not saved"):
    """After `what`: the status no longer says "Saving...", starts with `starts`, and Save works again."""
    status = rig.text("save-status")
    if "Saving" in status or not status.startswith(starts):
        raise StepFailed(f"the status after {what} is {status!r}")
    if not rig.element("save").is_enabled():
        raise StepFailed(f"Save is still disabled after {what}")
    return status


def edit_click(rig, action):
    """click selected in the form, its action field set to `action`."""
    rig.driver.find_element(By.CSS_SELECTOR, "tr[data-key='click'] button").click()
    rig.wait("click in the form", lambda d: rig.text("editing").startswith("click "))
    field = rig.element("action")
    field.clear()
    field.send_keys(action)


def watch_toggle_and_presses(rig):
    """From now on, window.toggleLog lists, in the order they happened, press to select turning
    on or off (["toggle", "true"]) and each button press the page counted (["press", name])."""
    rig.driver.execute_script("""
        window.toggleLog = [];
        new MutationObserver((changes) => {
          for (const change of changes) {
            if (change.attributeName === 'data-presses') window.toggleLog.push(['press', change.target.dataset.button]);
            else if (change.target.id === 'press-to-select') window.toggleLog.push(['toggle', change.target.getAttribute('aria-pressed')]);
          }
        }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['aria-pressed', 'data-presses']});
    """)


def choose_in_the_table_while_armed(rig, key):
    """Press to select turned on, then `key` chosen in the table, the two clicks sent as one
    action so that little can come between. The replay keeps pressing buttons, and a press while
    press to select is on selects that button and turns it off: an attempt where a press came
    between the toggle going on and going off again says nothing about the table's choice, so it
    is made again. Returns the number of attempts made."""
    for attempt in range(1, 11):
        start = rig.driver.execute_script("return window.toggleLog.length")
        row = rig.driver.find_element(By.CSS_SELECTOR, f"tr[data-key='{key}'] button")
        ActionChains(rig.driver).click(rig.element("press-to-select")).click(row).perform()
        rig.wait(f"{key} in the form", lambda d: rig.text("editing").startswith(f"{key} "))
        log = rig.driver.execute_script("return window.toggleLog.slice(arguments[0])", start)
        if ["toggle", "true"] not in log:
            raise StepFailed(f"clicking press to select did not turn it on ({log})")
        on = log.index(["toggle", "true"])
        off = next((index for index in range(on + 1, len(log)) if log[index] == ["toggle", "false"]), None)
        if off is None or rig.element("press-to-select").get_attribute("aria-pressed") != "false":
            raise StepFailed(f"choosing {key} in the table left press to select on ({log})")
        if not any(kind == "press" for kind, _ in log[on + 1:off]):
            return attempt
    raise StepFailed("ten times a replayed press turned press to select off before the table's choice did")


def step_pressing_keeps_the_chosen_setting(rig):
    """After a save, and after a control is chosen in the table, press to select stays off: the
    replay's next presses of click and app leave the chosen setting in the form."""
    if rig.element("press-to-select").get_attribute("aria-pressed") != "false":
        raise StepFailed("press to select is on again after a save")
    watch_toggle_and_presses(rig)
    attempts = choose_in_the_table_while_armed(rig, "volume-up")
    if rig.element("press-to-select").get_attribute("aria-pressed") != "false":
        raise StepFailed("choosing volume-up in the table left press to select on")
    presses = {name: int(rig.element(f"button-{name}").get_attribute("data-presses") or 0) for name in ("click", "app")}
    rig.wait("the replay to press click and app again", lambda d: all(
        int(rig.element(f"button-{name}").get_attribute("data-presses") or 0) > count for name, count in presses.items()))
    if not rig.text("editing").startswith("volume-up "):
        raise StepFailed(f"a press swapped the form to {rig.text('editing')!r}")
    rig.shot("pressing-keeps-choice")
    return (f"press to select off after a save and after a choice in the table (attempt {attempts}: the table's "
            "choice, no press between, turned it off); presses of click and app left volume-up in the form")


def step_bad_value(rig):
    saved = rig.file()
    rig.driver.find_element(By.CSS_SELECTOR, "tr[data-key='click'] button").click()
    rig.wait("click in the form", lambda d: rig.text("editing").startswith("click "))
    action = rig.element("action")
    action.clear()
    action.send_keys("KEY_SPACEE")
    rig.element("save").click()
    rig.wait("the diagnostic beside the field", lambda d: d.find_elements(By.ID, "error-for-action")
             and "did you mean KEY_SPACE" in rig.text("error-for-action"))
    error = rig.text("error-for-action")
    line = next(i + 1 for i, text in enumerate(saved.split(b"\n")) if text.startswith(b"click = "))
    if f"line {line}, column 9" not in error:
        raise StepFailed(f"the diagnostic {error!r} does not give line {line}, column 9")
    if rig.element("action").get_attribute("aria-invalid") != "true":
        raise StepFailed("the action field is not marked invalid")
    if rig.file() != saved:
        raise StepFailed("the file changed after a refused value")
    status = settled_status(rig, "the refused value")
    rig.shot("bad-value")
    return f"diagnostic shown: {error!r}; status {status!r}; file unchanged"


def step_stale_save(rig):
    """Another program writes the file after the page loaded it: the page's save is refused, says
    why, and writes nothing over the other program's change."""
    with open(rig.config, "ab") as other:
        other.write(b"# written by another program\n")
    behind = rig.file()
    action = rig.element("action")
    action.clear()
    action.send_keys("KEY_ENTER")
    rig.element("save").click()
    rig.wait("the refusal beside the field", lambda d: "changed since it was loaded" in rig.text("value-error"))
    status = settled_status(rig, "a refused save")
    if rig.file() != behind:
        raise StepFailed("a save over a file changed behind the page's back was written")
    rig.shot("stale-save")
    return f"refused: {rig.text('value-error')!r}; status {status!r}; the other program's line kept"


def step_labels_and_keyboard(rig):
    """Every visible control has an accessible name, and Tab reaches each (a radio group once)."""
    unlabeled = rig.driver.execute_script("""
        const visible = (e) => e.getClientRects().length > 0;
        return [...document.querySelectorAll('button, input, select, summary')].filter(visible).filter((e) => {
          if (e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')) return false;
          if (e.labels && e.labels.length && [...e.labels].some((l) => l.textContent.trim())) return false;
          if ((e.tagName === 'BUTTON' || e.tagName === 'SUMMARY') && e.textContent.trim()) return false;
          return true;
        }).map((e) => e.outerHTML.slice(0, 80));
    """)
    if unlabeled:
        raise StepFailed(f"controls without a label: {unlabeled}")
    controls = rig.driver.execute_script("""
        const visible = (e) => e.getClientRects().length > 0;
        return [...document.querySelectorAll('button, input, select, summary')].filter(visible)
          .map((e) => e.type === 'radio' ? 'radio:' + e.name : (e.id || e.getAttribute('aria-label') || e.textContent.trim()));
    """)
    wanted = set(controls)
    rig.driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0);")
    body = rig.driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    reached = set()
    for _ in range(len(controls) * 3 + 20):
        name = rig.driver.execute_script("""
            const e = document.activeElement;
            return e.type === 'radio' ? 'radio:' + e.name : (e.id || e.getAttribute('aria-label') || e.textContent.trim());
        """)
        reached.add(name)
        if wanted <= reached:
            break
        rig.driver.switch_to.active_element.send_keys(Keys.TAB)
    missing = wanted - reached
    if missing:
        raise StepFailed(f"Tab never reached {sorted(missing)}")
    rig.shot("keyboard")
    return f"{len(controls)} visible controls, all labelled, all reached with Tab"


def step_session_ended(rig):
    """The page's session cookie gone (as when ui was started again): the save is refused (403),
    and the page says the session ended and how to get a new one, with the server's reason."""
    saved = rig.file()
    rig.session = rig.driver.get_cookies()
    edit_click(rig, "KEY_TAB")
    rig.driver.delete_all_cookies()
    try:
        rig.element("save").click()
        rig.wait("the refusal beside the field", lambda d: rig.text("value-error"))
    finally:
        for cookie in rig.session:
            rig.driver.add_cookie(cookie)
    status = settled_status(rig, "a save without the session")
    error = rig.text("value-error")
    if "session" not in error or "open the address daydream-bridge ui printed" not in error:
        raise StepFailed(f"the refusal without the session says {error!r}")
    if rig.file() != saved:
        raise StepFailed("a save without the session changed the file")
    rig.shot("session-ended")
    return f"refused: {error!r}; status {status!r}; file unchanged"


def step_ui_stopped(rig):
    """ui stopped (SIGSTOP) while a save waits for its answer: the page stops waiting after its
    time, says so, and Save works again. (The page's revision is stale since step_stale_save: the
    save, answered once ui goes on, is refused.)"""
    edit_click(rig, "KEY_TAB")
    os.kill(rig.ui.pid, signal.SIGSTOP)
    try:
        rig.element("save").click()
        rig.wait("the save to be given up", lambda d: "did not answer" in rig.text("value-error"))
    finally:
        os.kill(rig.ui.pid, signal.SIGCONT)
    status = settled_status(rig, "a save with no answer", starts="Perhaps not saved")
    rig.shot("ui-stopped")
    return f"given up: {rig.text('value-error')!r}; status {status!r}"


class CrossOriginPage(http.server.BaseHTTPRequestHandler):
    """Another site on loopback whose page posts a setting to the editor."""
    target = ""

    def do_GET(self):
        body = (f'<!doctype html><form id="f" method="post" action="{self.target}">'
                '<input name="profile" value="gamepad"><input name="key" value="app">'
                '<input name="value" value="&quot;KEY_A&quot;"></form>'
                '<script>document.getElementById("f").submit()</script>').encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def step_refusals(rig):
    saved = rig.file()
    # The printed address works once (the browser used the file's own), then no more.
    with urllib.request.urlopen(rig.url) as first:
        if first.status != 200 or "daydream-session-" not in (first.headers.get("Set-Cookie") or ""):
            raise StepFailed(f"the printed address: {first.status}, cookie {first.headers.get('Set-Cookie')!r}")
    try:
        urllib.request.urlopen(rig.url)
        raise StepFailed("the printed address worked twice")
    except urllib.error.HTTPError as error:
        if error.code != 403:
            raise StepFailed(f"the printed address again: {error.code}, not 403")
    try:
        urllib.request.urlopen(rig.base + "/")
        raise StepFailed("the page answered without the token")
    except urllib.error.HTTPError as error:
        if error.code != 403:
            raise StepFailed(f"without the token: {error.code}, not 403")
    rig.driver.delete_all_cookies()
    rig.driver.get(rig.base + "/")
    rig.wait("the browser's 403 without the token", lambda d: "forbidden" in d.find_element(By.TAG_NAME, "body").text)
    rig.shot("no-token")
    CrossOriginPage.target = f"{rig.base}/api/setting"
    # Threads: the browser may hold an idle connection open, which would stall a single-threaded server.
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), CrossOriginPage)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        rig.driver.get(f"http://127.0.0.1:{server.server_address[1]}/")
        rig.wait("the editor's refusal of the cross-origin POST",
                 lambda d: "forbidden" in d.find_element(By.TAG_NAME, "body").text)
    finally:
        server.shutdown()
    if rig.file() != saved:
        raise StepFailed("the cross-origin POST changed the file")
    rig.shot("cross-origin")
    return ("the printed address once, then 403; 403 without the session (curl and the browser); "
            "403 for a POST from another origin; file unchanged")


def step_ui_gone(rig):
    """ui ended (the page loaded with the session kept from before): a save cannot reach it, and
    the page says so in words, not the browser's."""
    rig.driver.get(rig.base + "/")
    for cookie in rig.session:
        rig.driver.add_cookie(cookie)
    rig.driver.get(rig.base + "/")
    rig.wait("the page again", lambda d: len(Select(rig.element("profile")).options) >= 2)
    edit_click(rig, "KEY_TAB")
    rig.ui.terminate()
    rig.ui.wait(timeout=10)
    rig.element("save").click()
    rig.wait("the failure beside the field", lambda d: rig.text("value-error"))
    status = settled_status(rig, "a save to an ended ui")
    error = rig.text("value-error")
    if "daydream-bridge ui" not in error or "Failed to fetch" in error:
        raise StepFailed(f"the failure with ui gone says {error!r}")
    rig.shot("ui-gone")
    return f"failed: {error!r}; status {status!r}"


STEPS = [step_loads, step_click_lights, step_app_selects, step_save_key_space, step_touchpad_mode, step_chord,
         step_pressing_keeps_the_chosen_setting, step_bad_value,
         step_stale_save, step_labels_and_keyboard, step_session_ended, step_ui_stopped, step_refusals, step_ui_gone]


def run_page_test(name, description, steps, make_rig):
    """Runs `steps` of the test `name` in the rig `make_rig(binary, recording, output)` makes, from
    the command line every page test takes; prints each step's outcome; returns the exit status
    (77: Chromium is missing, which fails under CI=true in check-install)."""
    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the daydream-bridge to test (its page is found beside it)")
    parser.add_argument("--recording", default=os.path.join(ROOT, "Tests", "Recordings", "editor-tour.recording"))
    parser.add_argument("--output", required=True, help="where the screenshots and ui.log go")
    arguments = parser.parse_args()
    for program in ["chromium", "chromedriver"]:
        if not shutil.which(program):
            print(f"{name}: skipped: {program} is not installed (apt-get install chromium chromium-driver)")
            return SKIP
    os.makedirs(arguments.output, exist_ok=True)
    for old in os.listdir(arguments.output):
        if old.endswith(".png"):
            os.remove(os.path.join(arguments.output, old))
    rig = make_rig(os.path.abspath(arguments.binary), os.path.abspath(arguments.recording), arguments.output)
    try:
        rig.start()
        for step in steps:
            print(f"{name}: {step.__name__}: {step(rig)}", flush=True)
    except StepFailed as failure:
        print(f"{name}: FAILED: {failure}", flush=True)
        return 1
    finally:
        rig.stop()
    print(f"{name}: passed; screenshots in {arguments.output}")
    return 0


def main():
    return run_page_test("editor_page", __doc__, STEPS, EditorRig)


if __name__ == "__main__":
    sys.exit(main())
