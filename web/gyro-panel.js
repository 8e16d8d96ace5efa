// The gyro panel: the profile's `gyro = { ... }` as a player tunes it. The keys in groups
// (web/gyro-keys.js) with sliders, units and defaults; steadiness presets; when the gyro is on;
// the curve plot with the controller's speed marked and the trace of the last seconds
// (web/gyro-plot.js); the counts-per-degree helper (web/gyro-counts.js). It composes the TOML
// value the setting form saves: keys the player did not touch keep their text as the file
// writes them, a key set back to its default is left out (moved off it again, it goes back to
// its place), a new key goes at the end.

import { CountsHelper } from "./gyro-counts.js";
import { durationSeconds, settingsFrom } from "./gyro-curve.js";
import { byKey, groups, steadinessPresets, switchKeys } from "./gyro-keys.js";
import { gyroLive } from "./gyro-live.js";
import { CurvePlot, TracePlot } from "./gyro-plot.js";
import { entries } from "./inline-table.js";
import * as toml from "./toml-value.js";

/** How often the live parts redraw, in milliseconds. */
const redrawEvery = 100;

function element(name, attributes = {}, text) {
  const made = document.createElement(name);
  Object.assign(made, attributes);
  if (text !== undefined) made.textContent = text;
  return made;
}

const formatNumber = (value) => String(Number(Number(value).toPrecision(12)));

/** A value of the table as the form holds it: durations in milliseconds. */
function formValue(entry, value) {
  if (entry.kind === "duration") {
    const seconds = durationSeconds(value);
    return Number.isFinite(seconds) ? seconds * 1000 : undefined;
  }
  return value;
}

export class GyroPanel {
  constructor(vocabulary) {
    this.buttons = vocabulary.buttons;
    this.curve = new CurvePlot();
    this.trace = new TracePlot();
    this.counts = new CountsHelper(() => this.settings(), (value) => this.set("counts-per-degree", value, true));
    this.pairs = [];
    this.table = {};
    this.inputs = new Map();
  }

  /** The panel for `written` (the profile's gyro setting: `{value, text}`, or null) in `container`. */
  show(container, written) {
    this.table = written?.value && typeof written.value === "object" && !Array.isArray(written.value) ? { ...written.value } : {};
    this.pairs = entries(written?.text) ?? Object.entries(this.table).map(([key, value]) => [key, toml.fromJSON(value)]);
    this.root = element("div", { id: "gyro-panel" });
    const plots = element("div", { className: "gyro-plots" });
    plots.append(
      this.figure(this.curve.svg, "Sensitivity against speed: dashed the curve, solid what a steady turn gets; yellow: the controller now"),
      this.figure(this.trace.svg, "The last seconds: blue the gyro's speed, yellow the motion the bridge sent"));
    this.root.append(plots);
    if (written && !written.text) {
      this.root.append(element("p", { className: "gyro-hint" },
        "This profile writes the gyro as a table of its own ([profile.NAME.gyro]): edit it in the file, by hand."));
    }
    for (const group of groups) this.root.append(this.group(group));
    container.replaceChildren(this.root);
    this.refresh();
    this.live();
  }

  figure(svg, caption) {
    const figure = element("figure", { className: "gyro-figure" });
    figure.append(svg, element("figcaption", {}, caption));
    return figure;
  }

  group(group) {
    const fieldset = element("fieldset", { className: "gyro-group", id: "gyro-group-" + group.id });
    fieldset.append(element("legend", {}, group.title), element("p", { className: "gyro-hint" }, group.hint));
    if (group.id === "steadiness") fieldset.append(this.presets());
    if (group.id === "switch") fieldset.append(this.switchFields());
    for (const entry of group.keys) fieldset.append(this.field(entry));
    if (group.id === "output") fieldset.append(this.counts.root);
    return fieldset;
  }

  /** The value the form holds for `key`: the written one, else the default. */
  value(key) {
    const entry = byKey.get(key);
    const written = this.table[key] === undefined ? undefined : formValue(entry, this.table[key]);
    if (written !== undefined) return written;
    return typeof entry.fallback === "function" ? entry.fallback(this.table) : entry.fallback;
  }

  fallbackText(entry) {
    if (entry.fallbackText) return entry.fallbackText;
    if (entry.zero && entry.fallback === 0) return "0, " + entry.zero;
    if (entry.kind === "choice") return entry.choices.find(([value]) => value === entry.fallback)?.[1] || entry.fallback;
    if (entry.kind === "boolean") return entry.fallback ? "on" : "off";
    return String(entry.fallback);
  }

  /** One key's field: a slider with a number beside it, a number, a choice or a box. */
  field(entry) {
    const id = "gyro-" + entry.key;
    const row = element("div", { className: "gyro-field" });
    row.dataset.key = entry.key;
    if (entry.stick) row.dataset.stick = "true";
    const unit = entry.unit ? " (" + entry.unit + ")" : "";
    const defaultText = element("span", { className: "gyro-default" }, "default " + this.fallbackText(entry));
    if (entry.kind === "boolean") {
      const box = element("input", { type: "checkbox", id });
      box.checked = this.value(entry.key) === true;
      box.addEventListener("change", () => this.set(entry.key, box.checked));
      const label = element("label", { htmlFor: id, className: "gyro-check" });
      label.append(box, " " + entry.label + " ", defaultText);
      row.append(label);
      this.inputs.set(entry.key, { box });
      return row;
    }
    const label = element("label", { htmlFor: id }, entry.label + unit + " ");
    label.append(defaultText);
    row.append(label);
    if (entry.kind === "choice") {
      const select = element("select", { id });
      for (const [value, text] of entry.choices) select.append(new Option(text, value));
      select.value = this.value(entry.key);
      select.addEventListener("change", () => this.set(entry.key, select.value));
      row.append(select);
      this.inputs.set(entry.key, { select });
      return row;
    }
    const number = element("input", { type: "number", id: entry.kind === "number" ? id : id + "-number", step: entry.step, autocomplete: "off" });
    [number.min, number.max] = entry.accepts.map(String);
    number.value = formatNumber(this.value(entry.key));
    if (entry.kind === "number") {
      number.addEventListener("input", () => this.typed(entry, number));
      row.append(number);
      this.inputs.set(entry.key, { number });
      return row;
    }
    number.setAttribute("aria-label", entry.label + unit + ", typed");
    const slider = element("input", { type: "range", id, min: String(entry.min), max: String(entry.max), step: String(entry.step) });
    slider.value = String(this.value(entry.key));
    slider.addEventListener("input", () => {
      number.value = slider.value;
      number.removeAttribute("aria-invalid");
      this.set(entry.key, Number(slider.value));
    });
    number.addEventListener("input", () => this.typed(entry, number, slider));
    const pair = element("div", { className: "gyro-slider" });
    pair.append(slider, number);
    row.append(pair);
    this.inputs.set(entry.key, { slider, number });
    return row;
  }

  /** A number typed: taken when the config accepts it, else marked and left out. */
  typed(entry, number, slider) {
    const value = Number(number.value);
    const [low, high] = entry.accepts;
    if (number.value.trim() === "" || !Number.isFinite(value) || value < low || value > high) {
      number.setAttribute("aria-invalid", "true");
      return;
    }
    number.removeAttribute("aria-invalid");
    if (slider) slider.value = String(value);
    this.set(entry.key, value);
  }

  /** Off, light, medium, heavy: the smoothing and tightening keys at once. */
  presets() {
    const row = element("div", { className: "gyro-presets", role: "group" });
    row.setAttribute("aria-label", "Steadiness preset");
    row.append(element("span", {}, "Preset: "));
    for (const name of Object.keys(steadinessPresets)) {
      const button = element("button", { type: "button", id: "gyro-preset-" + name }, name[0].toUpperCase() + name.slice(1));
      button.dataset.preset = name;
      button.setAttribute("aria-pressed", "false");
      button.addEventListener("click", () => this.preset(name));
      row.append(button);
    }
    return row;
  }

  preset(name) {
    for (const [key, value] of Object.entries(steadinessPresets[name])) this.set(key, value, true, false);
    this.changed();
  }

  /** Always on, or a button (or the thumb on the pad) that switches it: on, off or toggle. */
  switchFields() {
    const row = element("div", { className: "gyro-field" });
    const written = switchKeys.find((key) => this.table[key] !== undefined);
    const mode = written === "off" && this.table.off === "touch" ? "touch" : written || "always";
    const select = element("select", { id: "gyro-switch" });
    for (const [value, text] of [["always", "always on"], ["on", "on while a button is held"], ["off", "off while a button is held"],
      ["toggle", "a button switches it on and off"], ["touch", "off while the thumb is on the pad"]]) select.append(new Option(text, value));
    select.value = mode;
    const button = element("select", { id: "gyro-switch-button" });
    for (const name of this.buttons) button.append(new Option(name, name));
    button.value = written && this.table[written] !== "touch" ? this.table[written] : "home";
    const label = element("label", { htmlFor: "gyro-switch" }, "The gyro aims ");
    label.append(element("span", { className: "gyro-default" }, "default always on"));
    const buttonRow = element("div");
    buttonRow.append(element("label", { htmlFor: "gyro-switch-button" }, "Button"), button);
    // Only the modes with a button show the button's choice.
    const showButton = () => { buttonRow.hidden = select.value === "always" || select.value === "touch"; };
    const apply = () => {
      showButton();
      this.setSwitch(select.value, button.value);
    };
    select.addEventListener("change", apply);
    button.addEventListener("change", apply);
    showButton();
    row.append(label, select, buttonRow);
    return row;
  }

  setSwitch(mode, button) {
    const at = this.pairs.findIndex(([key]) => switchKeys.includes(key));
    this.pairs = this.pairs.filter(([key]) => !switchKeys.includes(key));
    for (const key of switchKeys) delete this.table[key];
    if (mode !== "always") {
      const [key, value] = mode === "touch" ? ["off", "touch"] : [mode, button];
      this.table[key] = value;
      this.pairs.splice(at < 0 ? this.pairs.length : at, 0, [key, toml.quoted(value)]);
    }
    this.changed();
  }

  /**
   * `key` set to `value` (durations in milliseconds): left out when it is the default, else
   * written in place (at the end when new). `show` puts the value in the key's fields (for
   * presets and the helper).
   */
  set(key, value, show = false, notify = true) {
    const entry = byKey.get(key);
    const fallback = typeof entry.fallback === "function" ? entry.fallback(this.table) : entry.fallback;
    const isDefault = typeof value === "number" ? Math.abs(value - fallback) < 1e-9 : value === fallback;
    const index = this.pairs.findIndex(([name]) => name === key);
    if (isDefault) {
      // Left out, but its place kept: moved back off the default, it is written where it was.
      delete this.table[key];
      if (index >= 0) this.pairs[index][1] = null;
    } else {
      const written = entry.kind === "duration" ? formatNumber(value) + "ms" : value;
      this.table[key] = written;
      const text = typeof written === "string" ? toml.quoted(written) : typeof written === "number" ? formatNumber(written) : String(written);
      if (index >= 0) this.pairs[index][1] = text;
      else this.pairs.push([key, text]);
    }
    if (show) this.showValue(key);
    if (notify) this.changed();
  }

  showValue(key) {
    const fields = this.inputs.get(key);
    if (!fields) return;
    const value = this.value(key);
    if (fields.slider) fields.slider.value = String(value);
    if (fields.number) {
      fields.number.value = formatNumber(value);
      fields.number.removeAttribute("aria-invalid");
    }
    if (fields.box) fields.box.checked = value === true;
    if (fields.select) fields.select.value = value;
  }

  /** The settings the form says, as the engine would read them. */
  settings() {
    return settingsFrom(this.table);
  }

  /**
   * Something changed: the plot and the fields that follow it; and an input event from the panel
   * has the form compose the value again (a choice's or a preset's change brings none of its own).
   */
  changed() {
    this.refresh();
    this.root.dispatchEvent(new Event("input", { bubbles: true }));
  }

  refresh() {
    const settings = this.settings();
    gyroLive.space = settings.space;
    this.curve.draw(settings);
    // min-sens and max-sens follow sens while they are not written.
    for (const key of ["min-sens", "max-sens"]) if (this.table[key] === undefined) this.showValue(key);
    const stick = settings.output !== "mouse";
    for (const row of this.root.querySelectorAll(".gyro-field[data-stick]")) row.hidden = !stick;
    for (const [name, values] of Object.entries(steadinessPresets)) {
      const matches = Object.entries(values).every(([key, value]) => Math.abs(this.value(key) - value) < 1e-9);
      this.root.querySelector("#gyro-preset-" + name).setAttribute("aria-pressed", String(matches));
    }
  }

  /** The TOML value the panel says. */
  composed() {
    return toml.inlineTable(this.pairs.filter(([, text]) => text !== null));
  }

  /** Redraws the live parts while the panel is on the page. */
  live() {
    const root = this.root;
    let last = 0;
    const frame = (time) => {
      if (!root.isConnected || this.root !== root) return;
      if (time - last >= redrawEvery && root.offsetParent !== null) {
        last = time;
        const settings = this.settings();
        this.curve.mark(gyroLive.speed);
        this.trace.draw(settings.countsPerDegree, settings.stickSpeed);
        this.counts.update();
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }
}
