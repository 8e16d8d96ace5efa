#!/usr/bin/python3
"""The editor page's status line says what the bridge did with the config, and when, in a real
browser (headless Chromium, selenium).

The same rig as editor_page.py (`ui --replay` of editor-tour.recording on a copy of
config/default.toml: the replay's bridge watches that file). The steps:

1. the page loads through the file ui gave xdg-open;
2. the page's own save: the status says "Saved app ... at HH:MM:SS", then the bridge's reload
   of it: "The bridge reloaded the config at HH:MM:SS";
3. another editor changes the file behind the page's back (a new file renamed over it, as
   editors save): "The bridge reloaded the config at" appears, with the time, and the page's
   bridge sends the new binding;
4. another editor writes a value with an error: "The bridge kept its config at HH:MM:SS:" with
   the file's line and column, and the old binding still sent.

Each step leaves a screenshot. Waits are for what the page shows, never a fixed sleep. Exit
status 0 when every step passed, 1 with the failing step's reason, 77 when the browser is not
installed.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# editor_page exits 77 when selenium is missing.
from editor_page import EditorRig, StepFailed, run_page_test, step_loads  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

CLOCK = r"\d\d:\d\d:\d\d"


def bridge_said(rig):
    """What the status line says the bridge did last ("" when nothing yet)."""
    return rig.driver.execute_script(
        "const said = document.querySelector('#save-status [data-part=bridge]'); return said ? said.textContent.trim() : ''")


def write_behind_the_page(rig, old, new):
    """Another editor's save: the file with `old` replaced by `new`, written aside and renamed over it."""
    text = rig.file()
    if text.count(old) != 1:
        raise StepFailed(f"the config has {text.count(old)} of {old!r}, not one")
    aside = rig.config + ".other-editor"
    with open(aside, "wb") as other:
        other.write(text.replace(old, new))
    os.rename(aside, rig.config)


def bridge_time(rig):
    """The `<time>` element of what the bridge said last (None before it said anything)."""
    found = rig.driver.find_elements(By.CSS_SELECTOR, "#save-status [data-part=bridge] time")
    return found[0] if found else None


def said_anew(rig, before, pattern):
    """Waits until the bridge's part of the status is new (not the `before` time element) and matches `pattern`."""
    rig.wait(f"the status to say {pattern!r}", lambda d: bridge_time(rig) not in (None, before) and re.fullmatch(pattern, bridge_said(rig)))
    return bridge_said(rig)


def sent(rig, line):
    return line in rig.driver.execute_script("return [...document.querySelectorAll('#event-log li')].map((item) => item.textContent)")


def step_own_save_reloaded(rig):
    """The page's own save, then the bridge's reload of it, each with its time."""
    rig.driver.find_element(By.CSS_SELECTOR, "tr[data-key='app'] button").click()
    rig.wait("app in the form", lambda d: rig.text("editing").startswith("app "))
    action = rig.element("action")
    action.clear()
    action.send_keys("KEY_SPACE")
    if rig.element("value").get_attribute("value") != '"KEY_SPACE"':
        raise StepFailed(f"typing KEY_SPACE composed {rig.element('value').get_attribute('value')!r}")
    rig.element("save").click()
    rig.wait("the save and the bridge's reload of it", lambda d: re.search(
        rf"^Saved app in 'gamepad' at {CLOCK} .*The bridge reloaded the config at {CLOCK}\.$", rig.text("save-status")))
    status = rig.text("save-status")
    rig.shot("own-save-reloaded")
    return f"status {status!r}"


def step_changed_behind_the_page(rig):
    """Another editor changes app's binding: the bridge reloads, the page says so and when."""
    before = bridge_time(rig)
    write_behind_the_page(rig, b'app = "KEY_SPACE"', b'app = "KEY_ENTER"')
    said_anew(rig, before, rf"The bridge reloaded the config at {CLOCK}\.")
    time = bridge_time(rig)
    rig.wait("the page's bridge to send KEY_ENTER for app", lambda d: sent(rig, "keyboard EV_KEY KEY_ENTER 1"))
    rig.shot("reloaded-behind-the-page")
    return f"said {bridge_said(rig)!r} (datetime {time.get_attribute('datetime')}); the bridge then sent KEY_ENTER for app"


def step_error_kept(rig):
    """Another editor writes a value with an error: the bridge keeps its config and the page says why."""
    before = bridge_time(rig)
    write_behind_the_page(rig, b'app = "KEY_ENTER"', b'app = "KEY_ENTERR"')
    line = next(index + 1 for index, text in enumerate(rig.file().split(b"\n")) if text.startswith(b"app = "))
    said = said_anew(rig, before, rf"The bridge kept its config at {CLOCK}: .*")
    if not re.match(rf"The bridge kept its config at {CLOCK}: .*:{line}:7: error: .*KEY_ENTER", said):
        raise StepFailed(f"the bridge's refusal says {said!r}, not line {line}, column 7 and the name meant")
    rig.driver.execute_script("document.getElementById('event-log').replaceChildren()")
    rig.wait("the kept binding to be sent again", lambda d: sent(rig, "keyboard EV_KEY KEY_ENTER 1"))
    rig.shot("kept-its-config")
    return f"said {said!r}; app still sends KEY_ENTER"


STEPS = [step_loads, step_own_save_reloaded, step_changed_behind_the_page, step_error_kept]


def main():
    return run_page_test("editor_status", __doc__, STEPS, EditorRig)


if __name__ == "__main__":
    sys.exit(main())
