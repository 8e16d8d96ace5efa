#!/usr/bin/python3
"""The editor page in a player's words, in a real browser (headless Chromium, selenium).

The same rig as editor_page.py (`ui --replay` of editor-tour.recording on a copy of
config/default.toml), at 1366x900. The steps:

1. the page loads through the file ui gave xdg-open;
2. a binding made by name: volume-up chosen in the table, "cross", "left click", "KEY_KPPLUS"
   (Keypad +) and "KEY_SP" found in the search by a player's name and by code, then "space" typed in the search and its first match
   (Space - keyboard, KEY_SPACE) taken with the keyboard; the field says "Space - keyboard";
   saved: the file differs only in `volume-up = "KEY_SPACE"`, the table says "Space -
   keyboard", the status says when it saved, and press to select stays off;
3. an error shown at its field: the touchpad made a trackpad (its picture shown) with speed
   "fast": the reason is right after the speed field, in the page's words, with line and
   column, the field marked invalid, nothing beside Save, the file untouched;
4. a syntax slip in the raw view: click's TOML, unfolded with its toggle, typed without quotes:
   our sentence (not toml++'s) with line and column beside it, the config file unfolded at that
   line with the line as it would have been written marked, the file untouched.

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
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

CLOCK = re.compile(r"\b\d\d:\d\d:\d\d\b")


def choices(rig):
    """The chooser's options as [value, text]."""
    return rig.driver.execute_script(
        "return [...document.getElementById('choices').options].map((option) => [option.value, option.textContent])")


def search(rig, text):
    field = rig.element("search")
    field.clear()
    field.send_keys(text)


def edit(rig, key):
    rig.driver.find_element(By.CSS_SELECTOR, f"tr[data-key='{key}'] button").click()
    rig.wait(f"{key} in the form", lambda d: rig.text("editing").startswith(f"{key} "))


def changed_lines(before, after):
    before, after = before.split(b"\n"), after.split(b"\n")
    if len(before) != len(after):
        raise StepFailed(f"the file went from {len(before)} to {len(after)} lines")
    return [(index + 1, old, new) for index, (old, new) in enumerate(zip(before, after)) if old != new]


def step_binding_by_name(rig):
    rig.driver.set_window_size(1366, 900)
    before = rig.file()
    edit(rig, "volume-up")
    rig.element("action").click()
    rig.wait("the chooser", lambda d: rig.element("chooser").is_displayed())
    search(rig, "cross")
    rig.wait("A / Cross first for 'cross'", lambda d: choices(rig)[:1] and choices(rig)[0][0] == "BTN_SOUTH")
    cross = choices(rig)[0][1]
    if "A / Cross - gamepad" not in cross or "BTN_SOUTH" not in cross:
        raise StepFailed(f"'cross' found {cross!r}")
    found_by = {}
    for query, code, words in [("left click", "BTN_LEFT", "Left click - mouse"), ("KEY_KPPLUS", "KEY_KPPLUS", "Keypad + - keyboard")]:
        search(rig, query)
        rig.wait(f"{code} first for {query!r}", lambda d: choices(rig)[:1] and choices(rig)[0][0] == code)
        found_by[query] = choices(rig)[0][1]
        if words not in found_by[query]:
            raise StepFailed(f"{query!r} found {found_by[query]!r}")
    search(rig, "KEY_SP")
    rig.wait("KEY_SPACE for 'KEY_SP'", lambda d: "KEY_SPACE" in [value for value, _ in choices(rig)])
    search(rig, "space")
    rig.wait("Space first for 'space'", lambda d: choices(rig)[:1] and choices(rig)[0][0] == "KEY_SPACE")
    found = choices(rig)[0][1]
    if "Space - keyboard" not in found:
        raise StepFailed(f"'space' found {found!r} first")
    rig.shot("search-space")
    # As a player would: down into the list, Enter on the first match.
    rig.element("search").send_keys(Keys.ARROW_DOWN)
    rig.wait("the list focused", lambda d: d.switch_to.active_element.get_attribute("id") == "choices")
    rig.driver.switch_to.active_element.send_keys(Keys.ENTER)
    rig.wait("KEY_SPACE in the field", lambda d: rig.element("action").get_attribute("value") == "KEY_SPACE")
    words = rig.text("words-action")
    if "Space - keyboard" not in words or "KEY_SPACE" not in words:
        raise StepFailed(f"beside the field: {words!r}")
    rig.element("save").click()
    rig.wait("the save to be confirmed", lambda d: "Saved volume-up" in rig.text("save-status"))
    status = rig.text("save-status")
    if "'gamepad'" not in status or not CLOCK.search(status):
        raise StepFailed(f"the status {status!r} does not say the profile and the time")
    changed = changed_lines(before, rig.file())
    if len(changed) != 1 or changed[0][2] != b'volume-up = "KEY_SPACE"':
        raise StepFailed(f"the saved file differs in {changed}")
    row = rig.driver.find_element(By.CSS_SELECTOR, "tr[data-key='volume-up'] td").text
    if "Space - keyboard" not in row or '"KEY_SPACE"' not in row:
        raise StepFailed(f"the table says {row!r} for volume-up")
    if rig.element("press-to-select").get_attribute("aria-pressed") != "false":
        raise StepFailed("press to select is on again after the save")
    rig.shot("bound-by-name")
    return (f"'cross' -> {cross!r}; {found_by}; 'space' -> {found!r}; saved: only line {changed[0][0]} changed "
            f"({changed[0][1].decode()!r} -> {changed[0][2].decode()!r}); table {row!r}; status {status!r}; press to select off")


def step_error_at_field(rig):
    before = rig.file()
    edit(rig, "touchpad")
    Select(rig.element("mode")).select_by_value("trackpad")
    rig.wait("the trackpad's picture", lambda d: rig.element("mode-picture").get_attribute("data-mode") == "trackpad"
             and d.find_elements(By.CSS_SELECTOR, "#mode-picture svg"))
    picture = rig.driver.find_element(By.CSS_SELECTOR, "#mode-picture figcaption").text
    speed = rig.element("option-speed")
    speed.clear()
    speed.send_keys("fast")
    rig.element("save").click()
    rig.wait("the reason beside the speed field", lambda d: d.find_elements(By.ID, "error-for-option-speed"))
    error = rig.text("error-for-option-speed")
    follows = rig.driver.execute_script("""
        const field = document.getElementById('option-speed');
        let next = field.nextElementSibling;
        while (next && next.classList.contains('field-words')) next = next.nextElementSibling;
        return next && next.id;
    """)
    if follows != "error-for-option-speed":
        raise StepFailed(f"the reason is not right after the speed field (after it: {follows!r})")
    line = next(i + 1 for i, text in enumerate(rig.file().split(b"\n")) if text.startswith(b"touchpad = "))
    if not re.search(rf"^Expected a number from 0\.01 to 100, found \"fast\" \(line {line}, column \d+ of the file\)$", error):
        raise StepFailed(f"the reason says {error!r}")
    if speed.get_attribute("aria-invalid") != "true":
        raise StepFailed("the speed field is not marked invalid")
    if rig.text("value-error") or rig.element("toml-view").is_displayed():
        raise StepFailed(f"the reason is also under Save ({rig.text('value-error')!r}) or the TOML was unfolded")
    if rig.file() != before:
        raise StepFailed("the file changed after a refused value")
    status = rig.text("save-status")
    if not status.startswith("Not saved at ") or not CLOCK.search(status):
        raise StepFailed(f"the status says {status!r}")
    rig.shot("error-at-field")
    return f"picture: {picture!r}; beside speed: {error!r}; status {status!r}; file unchanged"


def step_syntax_slip(rig):
    before = rig.file()
    edit(rig, "click")
    line = next(i + 1 for i, text in enumerate(before.split(b"\n")) if text.startswith(b"click = "))
    if rig.element("value").is_displayed():
        raise StepFailed("the TOML is unfolded before its toggle is pressed")
    rig.element("toml-toggle").click()
    rig.wait("the TOML unfolded", lambda d: rig.element("value").is_displayed())
    value = rig.element("value")
    value.clear()
    value.send_keys("KEY_SPACE")
    rig.element("save").click()
    rig.wait("the slip beside the TOML", lambda d: d.find_elements(By.ID, "error-for-value"))
    error = rig.text("error-for-value")
    if "needs quotes" not in error or f"(line {line}, column 9)" not in error:
        raise StepFailed(f"beside the TOML: {error!r}")
    if not rig.element("file-details").get_attribute("open"):
        raise StepFailed("the config file is not unfolded")
    note = rig.text("raw-slip")
    if not note.startswith(f"Line {line}, column 9: ") or "needs quotes" not in note:
        raise StepFailed(f"the raw view says {note!r}")
    marked = rig.driver.find_element(By.CSS_SELECTOR, "#config-text .slip")
    if marked.get_attribute("data-line") != str(line) or not marked.text.startswith("click = KEY_SPACE"):
        raise StepFailed(f"the raw view marks line {marked.get_attribute('data-line')}: {marked.text!r}")
    in_view = rig.driver.execute_script("""
        const box = arguments[0].getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
    """, marked)
    if not in_view:
        raise StepFailed("the slip's line is not in view")
    body = rig.driver.find_element(By.TAG_NAME, "body").text
    if "could not determine value type" in body or "Error while parsing" in body:
        raise StepFailed("toml++'s own words are on the page")
    if rig.file() != before:
        raise StepFailed("the file changed after a slip")
    rig.shot("syntax-slip-raw-view")
    rig.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", rig.element("error-for-value"))
    rig.shot("syntax-slip-at-field")
    return f"beside the TOML: {error!r}; raw view: {note!r}, line {line} marked: {marked.text.splitlines()[0]!r}; file unchanged"


STEPS = [step_loads, step_binding_by_name, step_error_at_field, step_syntax_slip]


def main():
    return run_page_test("editor_words", __doc__, STEPS, EditorRig)


if __name__ == "__main__":
    sys.exit(main())
