// The gyro panel's two drawings (SVG): the sensitivity against the speed of a turn, as the
// settings in the form say (web/gyro-curve.js), with the smoothing and tightening bands, the
// thresholds, and the controller's current speed marked; and a trace of the last seconds of
// input (the gyro's speed) and output (the motion the bridge sent, in output deg/s).

import { cutoffFactor, gain, sensitivity } from "./gyro-curve.js";
import { gyroLive, traceSeconds } from "./gyro-live.js";

const svgNS = "http://www.w3.org/2000/svg";
const size = { width: 360, height: 196, left: 38, right: 10, top: 16, bottom: 30 };

function node(name, attributes = {}, text) {
  const element = document.createElementNS(svgNS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** The next round number at or above `value`: 1, 2, 5 times a power of ten. */
function roundUp(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value - 1e-9);
}

/** Axes with ticks at 0, half and the top of each scale. */
function axes(group, xMax, yMax, xUnit, yUnit) {
  const { width, height, left, right, top, bottom } = size;
  const x = (value) => left + (value / xMax) * (width - left - right);
  const y = (value) => height - bottom - (value / yMax) * (height - top - bottom);
  group.append(node("line", { x1: left, y1: height - bottom, x2: width - right, y2: height - bottom, class: "axis" }));
  group.append(node("line", { x1: left, y1: top, x2: left, y2: height - bottom, class: "axis" }));
  for (const fraction of [0, 0.5, 1]) {
    group.append(node("text", { x: x(xMax * fraction), y: height - bottom + 12, class: "tick", "text-anchor": "middle" }, String(xMax * fraction)));
    group.append(node("text", { x: left - 4, y: y(yMax * fraction) + 4, class: "tick", "text-anchor": "end" }, String(+(yMax * fraction).toFixed(2))));
  }
  group.append(node("text", { x: (left + width - right) / 2, y: height - 2, class: "tick", "text-anchor": "middle" }, xUnit));
  group.append(node("text", { x: 2, y: top - 6, class: "tick" }, yUnit));
  return { x, y };
}

/** The curve plot: call `draw(settings)` when the settings change, `mark(speed)` as packets come. */
export class CurvePlot {
  constructor() {
    this.svg = node("svg", { id: "gyro-curve", viewBox: `0 0 ${size.width} ${size.height}`, role: "img", "aria-labelledby": "gyro-curve-title" });
    this.settings = null;
  }

  draw(settings) {
    this.settings = settings;
    const highest = Math.max(60, settings.maxThreshold * 1.25, settings.minThreshold * 1.25, settings.cutoffRecovery * 2,
      settings.cutoffSpeed * 2, settings.smoothThreshold * 2);
    this.xMax = roundUp(highest);
    this.yMax = roundUp(Math.max(settings.minSens, settings.maxSens, 0.5) * 1.2);
    const title = node("title", { id: "gyro-curve-title" },
      "Sensitivity against the speed of a turn: the dashed line is the curve, the solid one what a steady turn gets after the tightening; the marker is the controller now");
    const group = node("g");
    const { x, y } = axes(group, this.xMax, this.yMax, "speed of the turn (deg/s)", "× your turn");
    this.x = x;
    this.y = y;
    const band = (from, to, className, label) => {
      if (!(to > from)) return;
      const end = Math.min(to, this.xMax);
      group.append(node("rect", { x: x(from), y: size.top, width: x(end) - x(from), height: size.height - size.top - size.bottom, class: className }));
      group.append(node("text", { x: x(from) + 3, y: size.top + 10, class: "band-label" }, label));
    };
    // Smoothing: fully below half the threshold, partly up to it.
    band(0, settings.smoothThreshold / 2, "band smooth-full", "smoothed");
    band(settings.smoothThreshold / 2, settings.smoothThreshold, "band smooth-part", "");
    const tightenedTo = Math.max(settings.cutoffRecovery, settings.cutoffSpeed);
    if (tightenedTo > 0) {
      group.append(node("rect", { x: x(0), y: size.height - size.bottom - 14, width: x(Math.min(tightenedTo, this.xMax)) - x(0), height: 14, class: "band tightened" }));
      group.append(node("text", { x: x(0) + 3, y: size.height - size.bottom - 3, class: "band-label" }, settings.cutoffSpeed > 0 ? "cut off / tightened" : "tightened"));
    }
    for (const [speed, label] of [[settings.minThreshold, "min"], [settings.maxThreshold, "max"]]) {
      if (settings.maxThreshold > settings.minThreshold && speed <= this.xMax) {
        group.append(node("line", { x1: x(speed), y1: size.top, x2: x(speed), y2: size.height - size.bottom, class: "threshold" }));
        group.append(node("text", { x: x(speed) + 2, y: size.top + 22, class: "band-label" }, label + "-threshold"));
      }
    }
    const points = (of) => {
      const list = [];
      for (let i = 0; i <= 240; i++) {
        const speed = (this.xMax * i) / 240;
        list.push(x(speed).toFixed(1) + "," + y(Math.min(of(speed), this.yMax)).toFixed(1));
      }
      return list.join(" ");
    };
    group.append(node("polyline", { points: points((speed) => sensitivity(settings, speed)), class: "curve-sens" }));
    group.append(node("polyline", { points: points((speed) => gain(settings, speed)), class: "curve-gain", id: "gyro-gain-line" }));
    this.now = node("line", { id: "gyro-now", x1: x(0), y1: size.top, x2: x(0), y2: size.height - size.bottom, class: "now" });
    this.dot = node("circle", { id: "gyro-now-dot", r: 4, cx: x(0), cy: y(gain(settings, 0)), class: "now-dot" });
    this.label = node("text", { id: "gyro-now-label", x: size.width - size.right, y: size.top + 10, "text-anchor": "end", class: "now-label" }, "");
    group.append(this.now, this.dot, this.label);
    this.svg.replaceChildren(title, group);
    this.mark(gyroLive.speed);
  }

  /** The controller's speed now, on the curve (at the right edge, with its value, when beyond it). */
  mark(speed) {
    if (!this.settings) return;
    const shown = Math.min(speed, this.xMax);
    const at = this.x(shown).toFixed(1);
    const factor = gain(this.settings, speed);
    this.now.setAttribute("x1", at);
    this.now.setAttribute("x2", at);
    this.dot.setAttribute("cx", at);
    this.dot.setAttribute("cy", this.y(Math.min(factor, this.yMax)).toFixed(1));
    this.svg.dataset.speed = speed.toFixed(1);
    this.svg.dataset.markerX = at;
    const cut = cutoffFactor(this.settings, speed) < 1 ? ", tightened" : "";
    this.label.textContent = "now " + speed.toFixed(0) + " deg/s: × " + factor.toFixed(2) + cut;
  }
}

/** The trace of the last seconds: input speed and the bridge's output, both in deg/s. */
export class TracePlot {
  constructor() {
    this.svg = node("svg", { id: "gyro-trace", viewBox: `0 0 ${size.width} ${size.height}`, role: "img", "aria-labelledby": "gyro-trace-title" });
  }

  /** `countsPerDegree` turns mouse counts into output degrees; `stickSpeed` a stick's deflection. */
  draw(countsPerDegree, stickSpeed) {
    const now = performance.now();
    const binMs = 100;
    const bins = new Map();
    // A stick's events set one axis each: the deflection is both axes as they last were.
    const deflection = { x: 0, y: 0 };
    for (const [time, dx, dy, kind] of gyroLive.outputs) {
      const bin = Math.floor(time / binMs);
      const entry = bins.get(bin) || { dx: 0, dy: 0, stick: null };
      if (kind === "mouse") {
        entry.dx += dx;
        entry.dy += dy;
      } else {
        if (Number.isFinite(dx)) deflection.x = dx;
        if (Number.isFinite(dy)) deflection.y = dy;
        entry.stick = { ...deflection };
      }
      bins.set(bin, entry);
    }
    // Every bin of the window: one without output is a still aim (a stick holds its last deflection).
    const outputs = [];
    let stick = null;
    for (let bin = Math.floor((now - traceSeconds * 1000) / binMs) + 1; bin < Math.floor(now / binMs); bin++) {
      const entry = bins.get(bin) || { dx: 0, dy: 0, stick: null };
      if (entry.stick) stick = entry.stick;
      const speed = stick ? Math.hypot(stick.x, stick.y) * stickSpeed : Math.hypot(entry.dx, entry.dy) / countsPerDegree / (binMs / 1000);
      outputs.push([(bin + 0.5) * binMs, speed]);
    }
    const inputs = gyroLive.inputs;
    const highest = Math.max(30, ...inputs.map((point) => point[1]), ...outputs.map((point) => point[1]));
    const yMax = roundUp(highest);
    const group = node("g");
    const { y } = axes(group, traceSeconds, yMax, "the last " + traceSeconds + " s", "deg/s");
    const x = (time) => size.left + (1 - (now - time) / (traceSeconds * 1000)) * (size.width - size.left - size.right);
    const line = (list, className, id) =>
      node("polyline", { id, class: className, points: list.map(([time, value]) => x(time).toFixed(1) + "," + y(Math.min(value, yMax)).toFixed(1)).join(" ") });
    const title = node("title", { id: "gyro-trace-title" }, "The last seconds: the gyro's speed (input) and the motion the bridge sent (output), both in degrees per second");
    group.append(line(inputs, "trace-input", "gyro-trace-input"), line(outputs, "trace-output", "gyro-trace-output"));
    this.svg.dataset.inputs = String(inputs.length);
    this.svg.dataset.outputs = String(bins.size);
    this.svg.replaceChildren(title, group);
  }
}
