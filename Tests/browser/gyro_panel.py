#!/usr/bin/python3
"""The editor page's gyro panel in a real browser: headless Chromium driven by selenium.

`daydream-bridge ui --replay` plays Tests/Recordings/gyro-turn.recording (at rest, a smooth turn of
90 degrees right in 1 s, at rest 2 s, the turn back, round and round) with a copy of
config/gyro-aim.toml (the shooter profile: gyro to the mouse, off while the thumb is on the pad).
The steps, as a player would take them:

1. the page loads and follows the replaying bridge; gyro chosen in the table shows the panel;
2. web/gyro-curve.js (the plot's curve) gives the engine's own numbers: each case of
   Tests/browser/gyro-curve.json (written by GyroCurveFixtureTests from GyroSettings and GyroAim)
   computed in the page;
3. the sensitivity slider moved with the keyboard (1 -> 1.5) and saved: the file differs in exactly
   that line, the gyro's other keys as they were written;
4. the "medium" steadiness preset: the smoothing and tightening fields show its values, the keys at
   their defaults left out, saved as exactly that line, and check-config accepts the file;
5. while the replay turns the controller, the plot marks the current speed (the marker where the
   speed is on the axis) and the trace shows input and output;
6. the counts-per-degree helper measures one replayed turn (the gyro integrated between Start and
   Stop: the recording's 90 degrees, and the mouse counts the bridge sent), "the game turned 120"
   typed, and the page fills counts-per-degree = counts / 120, saved as exactly that line;
7. the right stick chosen as output shows the stick's fields and writes output; mouse again (the
   default) leaves it out;
8. every visible control of the page with the panel open has a label, and Tab reaches each.

Screenshots at 1366x900 go to the output folder. Waits are for what the page shows, never a fixed
sleep. Exit status 0 when every step passed, 1 with the failing step's reason, 77 when the browser
is not installed.
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tomllib

from editor_page import ROOT, SKIP, EditorRig, StepFailed, step_labels_and_keyboard, step_loads

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

FIXTURE = os.path.join(ROOT, "Tests", "browser", "gyro-curve.json")
DEGREES_PER_COUNT = 2048 / 4095
DESKTOP_COUNTS_PER_DEGREE = 1000 * 3.141592653589793 / 180


def changed_lines(before, after):
    """The lines that differ, when the line count is the same; fails when it is not."""
    old, new = before.split(b"\n"), after.split(b"\n")
    if len(old) != len(new):
        raise StepFailed(f"the save changed the number of lines ({len(old)} -> {len(new)})")
    return [(index + 1, a.decode(), b.decode()) for index, (a, b) in enumerate(zip(old, new)) if a != b]


def gyro_line(rig):
    return next(line.decode() for line in rig.file().split(b"\n") if line.startswith(b"gyro = "))


def save_gyro(rig, expected_line):
    """Save; the file then differs from before in the gyro line alone, which reads `expected_line`."""
    before = rig.file()
    composed = rig.element("value").get_attribute("value")
    if "gyro = " + composed != expected_line:
        raise StepFailed(f"the panel composed {composed!r}, not {expected_line[7:]!r}")
    rig.element("save").click()
    rig.wait("the gyro's save to be confirmed", lambda d: "Saved gyro" in rig.text("save-status"))
    changed = changed_lines(before, rig.file())
    if len(changed) != 1 or changed[0][2] != expected_line:
        raise StepFailed(f"the save changed {changed}, not the gyro line alone to {expected_line!r}")
    check = subprocess.run([rig.binary, "check-config", rig.config], capture_output=True, text=True)
    if check.returncode != 0:
        raise StepFailed(f"check-config refused the saved file: {check.stdout}{check.stderr}")
    rig.wait("the panel again after the save", lambda d: d.find_elements(By.ID, "gyro-panel"))
    return changed[0]


def step_opens_panel(rig):
    rig.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 1366, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    rig.driver.find_element(By.CSS_SELECTOR, "tr[data-key='gyro'] button").click()
    rig.wait("the gyro panel", lambda d: d.find_elements(By.ID, "gyro-panel"))
    groups = [legend.text for legend in rig.driver.find_elements(By.CSS_SELECTOR, "#gyro-panel .gyro-group > legend")]
    wanted = ["Sensitivity and curve", "Steadiness", "When the gyro is on", "Output"]
    if groups != wanted:
        raise StepFailed(f"the panel's groups are {groups}, not {wanted}")
    sens = rig.element("gyro-sens")
    if sens.get_attribute("type") != "range" or sens.get_attribute("value") != "1":
        raise StepFailed(f"sens is a {sens.get_attribute('type')} at {sens.get_attribute('value')!r}, not a slider at 1")
    label = rig.driver.find_element(By.CSS_SELECTOR, "label[for='gyro-smooth-threshold']").text
    if "deg/s" not in label or "default 0" not in label:
        raise StepFailed(f"the smoothing slider's label {label!r} gives no unit or default")
    switch = rig.element("gyro-switch").get_attribute("value")
    if switch != "touch":
        raise StepFailed(f"the switch shows {switch!r} for off = \"touch\"")
    rig.driver.execute_script("document.getElementById('gyro-panel').scrollIntoView({block: 'start'})")
    rig.shot("gyro-panel")
    return f"groups {groups}; sens a slider at 1; smoothing labelled {label!r}; switch {switch!r}"


def step_curve_is_the_engines(rig):
    with open(FIXTURE) as fixture:
        cases = json.load(fixture)["cases"]
    for case in cases:
        case["table"] = tomllib.loads("gyro = " + case["gyro"])["gyro"]
    worst = rig.driver.execute_async_script("""
        const [cases, done] = arguments;
        import('/gyro-curve.js').then((curve) => {
          let worst = {error: 0};
          for (const c of cases) {
            const settings = curve.settingsFrom(c.table);
            for (const [speed, sens, cutoff, gain] of c.points) {
              const got = [curve.sensitivity(settings, speed), curve.cutoffFactor(settings, speed), curve.gain(settings, speed)];
              [sens, cutoff, gain].forEach((want, i) => {
                const error = Math.abs(got[i] - want) / Math.max(1, Math.abs(want));
                if (!(error <= worst.error)) worst = {error, gyro: c.gyro, speed, what: i, want, got: got[i]};
              });
            }
          }
          done(worst);
        }, (error) => done({error: String(error)}));
    """, cases)
    if not isinstance(worst.get("error"), (int, float)) or worst["error"] > 1e-9:
        raise StepFailed(f"web/gyro-curve.js differs from the engine: {worst}")
    points = sum(len(case["points"]) for case in cases)
    return f"{len(cases)} tables, {points} speeds: sensitivity, cutoff and steady gain within {worst['error']:.1e} of the engine's"


def step_slider_saves_one_line(rig):
    original = gyro_line(rig)
    slider = rig.element("gyro-sens")
    # Ten steps of 0.05 by keyboard, as a player tabbing to the slider would.
    for _ in range(10):
        slider.send_keys(Keys.ARROW_RIGHT)
    if rig.element("gyro-sens-number").get_attribute("value") != "1.5":
        raise StepFailed(f"the slider's number reads {rig.element('gyro-sens-number').get_attribute('value')!r}, not 1.5")
    expected = original.replace("sens = 1.0,", "sens = 1.5,", 1)
    line = save_gyro(rig, expected)
    rig.shot("gyro-sens-saved")
    return f"line {line[0]}: {line[1]!r} -> {line[2]!r}"


def step_medium_preset(rig):
    before = gyro_line(rig)
    rig.element("gyro-preset-medium").click()
    shown = {key: rig.element(f"gyro-{key}-number").get_attribute("value")
             for key in ["smooth-threshold", "smooth-time", "cutoff-speed", "cutoff-recovery"]}
    if shown != {"smooth-threshold": "6", "smooth-time": "125", "cutoff-speed": "0", "cutoff-recovery": "4"}:
        raise StepFailed(f"the medium preset shows {shown}")
    if rig.element("gyro-preset-medium").get_attribute("aria-pressed") != "true":
        raise StepFailed("the medium preset is not shown as the one in use")
    # smooth-time = "125ms" is the default now: left out; the others in place.
    expected = 'gyro = { sens = 1.5, counts-per-degree = 17.45, off = "touch", cutoff-recovery = 4, smooth-threshold = 6 }'
    line = save_gyro(rig, expected)
    rig.shot("gyro-medium-saved")
    return f"fields {shown}; {before!r} -> {line[2]!r}; check-config accepts it"


def step_plot_marks_speed(rig):
    """While the replay turns, the marker stands where the speed is on the plot's axis, with the
    gain the settings give there (sens 1.5, tightened only below 4 deg/s)."""
    rig.driver.execute_script("document.getElementById('gyro-curve').scrollIntoView({block: 'center'})")
    top = float(rig.driver.execute_script(
        "return [...document.querySelectorAll('#gyro-curve text.tick')].map((t) => t.textContent)[4]"))
    # The marker as one drawing shows it (read at once: the next redraw may show another speed).
    read = """
        const svg = document.getElementById('gyro-curve');
        return {speed: Number(svg.dataset.speed), x: Number(document.getElementById('gyro-now').getAttribute('x1')),
                label: document.getElementById('gyro-now-label').textContent};
    """
    marker = rig.wait(f"the plot to mark a turn between 20 deg/s and the axis' end ({top})",
                      lambda d: (lambda m: m if 20 < m["speed"] < top else None)(d.execute_script(read)))
    # The plot spans x 38 to 350 of its 360 wide box, for 0 to `top` deg/s.
    expected_x = 38 + marker["speed"] / top * (360 - 38 - 10)
    if abs(marker["x"] - expected_x) > 0.2:
        raise StepFailed(f"the marker is at x {marker['x']}, not {expected_x:.1f} for {marker['speed']} deg/s on a 0..{top} axis")
    if not marker["label"].startswith("now ") or "× 1.50" not in marker["label"]:
        raise StepFailed(f"the marker's label reads {marker['label']!r}, not the gain 1.50 of a turn above 4 deg/s")
    trace = rig.element("gyro-trace")
    rig.wait("the trace to show input and output",
             lambda d: int(trace.get_attribute("data-inputs") or 0) > 10 and int(trace.get_attribute("data-outputs") or 0) > 3)
    rig.shot("gyro-plot-live")
    return (f"marker at {marker['speed']} deg/s drawn at x {marker['x']} (axis 0..{top}); label {marker['label']!r}; "
            f"trace: {trace.get_attribute('data-inputs')} input points, {trace.get_attribute('data-outputs')} output bins")


def recorded_turn_degrees():
    """The recording's turn as its scenario builds it (Tests/BridgeToolsTests/Scenarios.swift,
    `gyroTurn`, which ScenarioRecordingTests holds the file to): 50 packets 20 ms apart at
    90 (1 - cos 2 pi t) deg/s, each rounded to the gyro's counts."""
    counts = [round(90 * (1 - math.cos(2 * math.pi * step / 50)) / DEGREES_PER_COUNT) for step in range(50)]
    return sum(counts) * DEGREES_PER_COUNT * 0.02


def reading(rig):
    """The helper's measurement as the page holds it now (the shown reading follows it each redraw)."""
    return rig.driver.execute_async_script("""
        const done = arguments[0];
        import('/gyro-live.js').then(({gyroLive}) => done({degrees: gyroLive.measured.degrees, counts: gyroLive.measured.counts,
                                                            stillFor: gyroLive.stillFor(), measuring: gyroLive.measuring}));
    """)


def step_counts_per_degree(rig):
    exact = recorded_turn_degrees()
    rig.driver.execute_script("document.getElementById('gyro-measure').scrollIntoView({block: 'center'})")
    # Start just after a turn ends (by the controller's clock): the next starts 2 s after it.
    rig.wait("the controller at rest, just after a turn", lambda d: 0.3 <= reading(rig)["stillFor"] <= 0.8, timeout=60)
    rig.element("gyro-measure-start").click()
    rig.wait("a whole turn measured, then rest",
             lambda d: (lambda r: abs(r["degrees"]) >= 60 and r["stillFor"] >= 0.4)(reading(rig)), timeout=60)
    rig.element("gyro-measure-stop").click()
    measured = rig.driver.execute_script("return {...document.getElementById('gyro-measure-reading').dataset}")
    degrees, counts = abs(float(measured["degrees"])), abs(int(measured["counts"]))
    # The stream to the page is thinned to 60 packets a second: the page bridges gaps (within a degree).
    if abs(degrees - exact) > 1.5:
        raise StepFailed(f"the helper measured {degrees} degrees of the recording's {exact:.2f}")
    # sens 1.5 at the file's counts-per-degree (17.45), less the tightening below 4 deg/s; the
    # engine's steps follow the packets' arrival too, so a loaded machine moves it a little.
    sent = exact * 1.5 * 17.45
    if not 0.95 * sent <= counts <= 1.03 * sent:
        raise StepFailed(f"the bridge sent {counts} counts for the turn, not about {sent:.0f}")
    rig.element("gyro-game-degrees").send_keys("120")
    rig.element("gyro-measure-fill").click()
    value = float(f"{counts / 120:.4g}")
    field = rig.element("gyro-counts-per-degree").get_attribute("value")
    if float(field) != value:
        raise StepFailed(f"counts-per-degree filled with {field}, not {counts} / 120 = {value}")
    rig.shot("gyro-counts-measured")
    expected = f'gyro = {{ sens = 1.5, counts-per-degree = {field}, off = "touch", cutoff-recovery = 4, smooth-threshold = 6 }}'
    line = save_gyro(rig, expected)
    return (f"recording's turn {exact:.2f} deg, measured {degrees:.2f} deg and {counts} counts; game 120 deg -> "
            f"{rig.text('gyro-measure-result')!r}; saved {line[2]!r}")


def step_stick_output(rig):
    """The right stick chosen: the stick's fields show and output is written; mouse chosen again
    (the default): the stick's fields hide and the value is the saved line again."""
    saved = gyro_line(rig)[len("gyro = "):]
    output = Select(rig.element("gyro-output"))
    output.select_by_value("right-stick")
    rig.wait("the stick's fields", lambda d: rig.element("gyro-stick-speed").is_displayed())
    composed = rig.element("value").get_attribute("value")
    if composed != saved[:-2] + ', output = "right-stick" }':
        raise StepFailed(f"the right stick composed {composed!r}")
    rig.driver.execute_script("document.getElementById('gyro-stick-speed').scrollIntoView({block: 'center'})")
    rig.shot("gyro-stick")
    output.select_by_value("mouse")
    if rig.element("gyro-stick-speed").is_displayed():
        raise StepFailed("the stick's fields still show for mouse output")
    if rig.element("value").get_attribute("value") != saved:
        raise StepFailed(f"mouse again composed {rig.element('value').get_attribute('value')!r}, not the saved {saved!r}")
    return f"right stick: {composed!r}, its fields shown; mouse again: {saved!r}, hidden"


STEPS = [step_loads, step_opens_panel, step_curve_is_the_engines, step_slider_saves_one_line, step_medium_preset,
         step_plot_marks_speed, step_counts_per_degree, step_stick_output, step_labels_and_keyboard]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the daydream-bridge to test (its page is found beside it)")
    parser.add_argument("--turn-recording", default=os.path.join(ROOT, "Tests", "Recordings", "gyro-turn.recording"),
                        help="the recording played: its steps need gyro-turn's known turn")
    parser.add_argument("--recording", help="the example recording check-install gives each page test; not played here")
    parser.add_argument("--output", required=True, help="where the screenshots and ui.log go")
    arguments = parser.parse_args()
    for program in ["chromium", "chromedriver"]:
        if not shutil.which(program):
            print(f"gyro_panel: skipped: {program} is not installed (apt-get install chromium chromium-driver)")
            return SKIP
    os.makedirs(arguments.output, exist_ok=True)
    for old in os.listdir(arguments.output):
        if old.endswith(".png"):
            os.remove(os.path.join(arguments.output, old))
    rig = EditorRig(os.path.abspath(arguments.binary), os.path.abspath(arguments.turn_recording), arguments.output)
    shutil.copyfile(os.path.join(ROOT, "config", "gyro-aim.toml"), rig.config)
    rig.original = rig.file()
    try:
        rig.start()
        for step in STEPS:
            print(f"gyro_panel: {step.__name__}: {step(rig)}", flush=True)
    except StepFailed as failure:
        print(f"gyro_panel: FAILED: {failure}", flush=True)
        return 1
    finally:
        rig.stop()
    print(f"gyro_panel: passed; screenshots in {arguments.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
