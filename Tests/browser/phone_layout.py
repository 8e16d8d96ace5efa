#!/usr/bin/python3
"""The editor page on a phone's screen, 390x844, in headless Chromium driven by selenium.

The rig of editor_page.py (`ui --replay` with a copy of config/default.toml) at a phone's size:

1. the page loads at 390 px wide with no horizontal scroll;
2. tapping a control on the controller picture (app) selects it and brings the editor's form
   into the viewport; the page still has no horizontal scroll;
3. tapping a row of the table (home) does the same.

Each step leaves a screenshot in the output folder. Waits are for what the page shows, never a
fixed sleep. Exit status 0 when every step passed, 1 with the failing step's reason, 77 when the
browser is not installed.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import editor_page  # noqa: E402  (skips with 77 itself when selenium is missing)
from editor_page import EditorRig, StepFailed, run_page_test  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

WIDTH, HEIGHT = 390, 844


def horizontal_overflow(rig):
    """How many CSS pixels the page is wider than the window (0: no horizontal scroll)."""
    return rig.driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")


def form_in_view(rig):
    """The form's top and the window's height, when the form is shown with its top in the window."""
    return rig.driver.execute_script("""
        const form = document.getElementById('setting-form');
        if (form.hidden) return null;
        const box = form.getBoundingClientRect();
        return box.top >= 0 && box.top < window.innerHeight ? [box.top, window.innerHeight] : null;
    """)


def step_loads_narrow(rig):
    rig.driver.get(rig.url)
    rig.wait("the page's own address", lambda d: d.current_url == rig.base + "/")
    rig.wait("the profiles", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#binding-table tbody tr")) >= 5)
    width = rig.driver.execute_script("return window.innerWidth")
    if width != WIDTH:
        raise StepFailed(f"the window is {width} px wide, not {WIDTH}")
    # Press to select off, so the replay's presses do not change what is selected meanwhile.
    toggle = rig.element("press-to-select")
    if toggle.get_attribute("aria-pressed") == "true":
        toggle.click()
    overflow = horizontal_overflow(rig)
    rig.shot("phone-loaded")
    if overflow > 0:
        raise StepFailed(f"the page scrolls sideways by {overflow} px at {WIDTH} px")
    return f"loaded at {width}x{rig.driver.execute_script('return window.innerHeight')}, no horizontal scroll"


def step_tap_on_the_picture(rig):
    rig.driver.execute_script("window.scrollTo(0, 0)")
    if form_in_view(rig):
        raise StepFailed("the form is in view before the tap: nothing to show")
    rig.element("button-app").click()
    rig.wait("app in the form", lambda d: rig.text("editing").startswith("app "))
    place = rig.wait("the form in the viewport", lambda d: form_in_view(rig))
    overflow = horizontal_overflow(rig)
    rig.shot("phone-tapped-app")
    if overflow > 0:
        raise StepFailed(f"with the form open the page scrolls sideways by {overflow} px")
    return f"tapped app on the picture: the form's top at {place[0]:.0f} of {place[1]} px, no horizontal scroll"


def step_tap_on_a_row(rig):
    row = rig.driver.find_element(By.CSS_SELECTOR, '#binding-table tr[data-key="home"] button')
    rig.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    if form_in_view(rig):
        raise StepFailed("the form is in view before the tap on the row: nothing to show")
    row.click()
    rig.wait("home in the form", lambda d: rig.text("editing").startswith("home "))
    place = rig.wait("the form in the viewport", lambda d: form_in_view(rig))
    rig.shot("phone-tapped-row")
    return f"tapped the home row: the form's top at {place[0]:.0f} of {place[1]} px"


STEPS = [step_loads_narrow, step_tap_on_the_picture, step_tap_on_a_row]


class PhoneRig(EditorRig):
    def start(self):
        super().start()
        self.driver.set_window_size(WIDTH, HEIGHT)


def main():
    return run_page_test("phone_layout", __doc__, STEPS, PhoneRig)


if __name__ == "__main__":
    sys.exit(main())
