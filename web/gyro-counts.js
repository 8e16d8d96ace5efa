// The counts-per-degree helper: the player clicks Start, turns the controller a known angle (say
// 90 degrees), clicks Stop, and types how far the game turned. The page measured the turn from
// the gyro (the controller's clock between packets, as the engine takes it) and added up the
// mouse counts the bridge sent meanwhile; the game's counts per degree is those counts over the
// game's degrees. doc/configuration.md ("The gyro panel") explains the formula.

import { gyroLive } from "./gyro-live.js";

function element(name, attributes = {}, text) {
  const made = document.createElement(name);
  Object.assign(made, attributes);
  if (text !== undefined) made.textContent = text;
  return made;
}

/**
 * Counts per degree from a measurement: `counts` the bridge sent while the controller turned
 * `degrees` (by the gyro), and `gameDegrees` the game turned. With counts sent: counts /
 * gameDegrees. Without (the output is a stick, or the gyro was off): the counts the settings would
 * have sent for a flat `sens`, `countsPerDegree` × sens × degrees, over gameDegrees. NaN when
 * neither applies.
 */
export function countsPerDegree({ counts, degrees, gameDegrees, currentCountsPerDegree, flatSens }) {
  if (!(gameDegrees > 0)) return NaN;
  if (counts !== 0) return Math.abs(counts) / gameDegrees;
  if (flatSens === null || !(Math.abs(degrees) > 0)) return NaN;
  return (currentCountsPerDegree * flatSens * Math.abs(degrees)) / gameDegrees;
}

export class CountsHelper {
  /** `settings()` the form's settings now; `fill(value)` writes counts-per-degree. */
  constructor(settings, fill) {
    this.settings = settings;
    this.fill = fill;
    this.root = element("fieldset", { id: "gyro-measure" });
    this.root.append(element("legend", {}, "Measure counts-per-degree"));
    this.root.append(element("p", { className: "gyro-hint" },
      "1. Start. 2. Turn the controller a known angle, say 90° (the game's camera turns with it). 3. Stop. "
        + "4. Type how far the game turned, and fill. The game's counts per degree = the mouse counts the bridge sent "
        + "÷ the degrees the game turned; with it, sensitivity 1 turns the game as far as you turn the controller."));
    const start = element("button", { type: "button", id: "gyro-measure-start" }, "Start");
    const stop = element("button", { type: "button", id: "gyro-measure-stop", hidden: true }, "Stop");
    this.reading = element("p", { id: "gyro-measure-reading", className: "gyro-reading" }, "Not measured yet.");
    this.reading.setAttribute("role", "status");
    const gameLabel = element("label", { htmlFor: "gyro-game-degrees" }, "The game turned (degrees)");
    this.game = element("input", { id: "gyro-game-degrees", type: "number", min: "0.1", step: "any", autocomplete: "off" });
    const compute = element("button", { type: "button", id: "gyro-measure-fill" }, "Fill counts-per-degree");
    this.result = element("p", { id: "gyro-measure-result", className: "gyro-reading" });
    start.addEventListener("click", () => {
      gyroLive.start();
      start.hidden = true;
      stop.hidden = false;
      stop.focus();
      this.result.textContent = "";
    });
    stop.addEventListener("click", () => {
      gyroLive.stop();
      start.hidden = false;
      stop.hidden = true;
      start.focus();
      this.update();
    });
    compute.addEventListener("click", () => this.compute());
    this.root.append(start, stop, this.reading, gameLabel, this.game, compute, this.result);
  }

  /** The measurement so far, shown (and kept in data- attributes for tests and scripts). */
  update() {
    const { degrees, counts } = gyroLive.measured;
    this.reading.dataset.degrees = degrees.toFixed(2);
    this.reading.dataset.counts = String(counts);
    this.reading.dataset.measuring = String(gyroLive.measuring);
    this.reading.dataset.stillFor = gyroLive.stillFor().toFixed(2);
    if (!gyroLive.measuring && degrees === 0 && counts === 0) return;
    this.reading.textContent = (gyroLive.measuring ? "Measuring: " : "Measured: ") + "you turned " + Math.abs(degrees).toFixed(1)
      + "° " + (degrees >= 0 ? "right" : "left") + "; the bridge sent " + Math.abs(counts) + " mouse counts.";
  }

  compute() {
    const settings = this.settings();
    const { degrees, counts } = gyroLive.measured;
    const gameDegrees = Number(this.game.value);
    const flat = settings.minSens === settings.maxSens && settings.cutoffSpeed === 0 && settings.cutoffRecovery === 0;
    const value = countsPerDegree({ counts, degrees, gameDegrees, currentCountsPerDegree: settings.countsPerDegree, flatSens: flat ? settings.minSens : null });
    if (!Number.isFinite(value) || value < 0.001 || value > 100000) {
      this.result.textContent = gameDegrees > 0
        ? "No turn measured: Start, turn the controller, Stop, then fill (with mouse output and the gyro on)."
        : "Type how many degrees the game turned.";
      return;
    }
    const rounded = Number(value.toPrecision(4));
    this.result.textContent = counts !== 0
      ? Math.abs(counts) + " counts ÷ " + gameDegrees + "° = " + rounded + " counts per degree."
      : settings.countsPerDegree.toFixed(2) + " × sens " + settings.minSens + " × " + Math.abs(degrees).toFixed(1) + "° ÷ " + gameDegrees + "° = " + rounded + " counts per degree.";
    this.result.dataset.value = String(rounded);
    this.fill(rounded);
  }
}
