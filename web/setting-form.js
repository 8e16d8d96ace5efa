// The form for one setting, filled from what the profile writes: a button's action (one, tap
// and hold, or codes pressed together), the touchpad's mode and options, the gyro's settings,
// the chords; and the TOML value the fields say.

import { GyroPanel } from "./gyro-panel.js";
import { showModePicture } from "./touchpad-pictures.js";
import { showTOML } from "./raw-view.js";
import * as toml from "./toml-value.js";

const $ = (id) => document.getElementById(id);

export class SettingForm {
  /** `onChange()` when a choice changes the form's shape (a shape, a touchpad mode). */
  constructor(vocabulary, onChange) {
    this.vocabulary = vocabulary;
    this.form = $("setting-form");
    this.key = null;
    this.tableValues = {};
    this.chords = {};
    this.gyro = new GyroPanel(vocabulary);
    for (const radio of this.form.elements.shape) {
      radio.addEventListener("change", () => {
        this.showShape(radio.value);
        onChange();
      });
    }
    $("mode").addEventListener("change", () => {
      showModePicture($("mode-picture"), $("mode").value);
      this.renderOptions();
      onChange();
    });
  }

  /** `key`'s fields, filled from `written` (the profile's setting, or null). */
  show(key, written) {
    this.key = key;
    this.written = written;
    this.form.hidden = false;
    const isButton = this.vocabulary.buttons.includes(key);
    $("button-fields").hidden = !isButton;
    $("table-fields").hidden = !(key === "touchpad" || key === "gyro");
    $("chord-fields").hidden = key !== "chords";
    // A setting with no fields of its own (`applications`, say) is edited as its TOML at once.
    showTOML(!(isButton || key === "touchpad" || key === "gyro" || key === "chords"));
    if (isButton) this.fillButton(written?.value);
    if (key === "touchpad") this.fillTable(written?.value, true);
    if (key === "gyro") this.fillTable(written?.value, false);
    if (key === "chords") this.fillChords(written);
    $("value").value = written?.text || "";
  }

  fillButton(value) {
    let shape = "action";
    for (const id of ["action", "tap", "hold", "hold-time", "together"]) $(id).value = "";
    if (Array.isArray(value)) {
      shape = "together";
      $("together").value = value.join(" ");
    } else if (value && typeof value === "object") {
      shape = "tap-hold";
      $("tap").value = typeof value.tap === "string" ? value.tap : "";
      $("hold").value = typeof value.hold === "string" ? value.hold : "";
      $("hold-time").value = value["hold-time"] || "";
    } else if (typeof value === "string") {
      $("action").value = value;
    }
    this.showShape(shape);
  }

  showShape(shape) {
    for (const radio of this.form.elements.shape) radio.checked = radio.value === shape;
    for (const part of document.querySelectorAll("#button-fields .shape")) part.hidden = part.dataset.shape !== shape;
  }

  /** The touchpad's mode and its options, or the gyro's keys, from `value` (a table or nothing). */
  fillTable(value, isTouchpad) {
    const table = value && typeof value === "object" && !Array.isArray(value) ? value : {};
    $("table-legend").textContent = isTouchpad ? "Touchpad" : "Gyro aiming";
    $("mode-row").hidden = !isTouchpad;
    if (isTouchpad) {
      const modes = this.vocabulary.touchpadModes.map((entry) => entry.mode);
      $("mode").replaceChildren(...modes.map((mode) => new Option(mode, mode)));
      $("mode").value = typeof table.mode === "string" ? table.mode : "none";
      showModePicture($("mode-picture"), $("mode").value);
    }
    this.tableValues = table;
    this.renderOptions();
  }

  /** One labelled field per option, prefilled with what is written (the gyro: its panel). */
  renderOptions() {
    if (this.key === "gyro") return this.gyro.show($("options"), this.written);
    const keys = this.key === "touchpad"
      ? this.vocabulary.touchpadModes.find((entry) => entry.mode === $("mode").value)?.options || []
      : this.vocabulary.gyroKeys;
    const fields = keys.map((option) => {
      const id = "option-" + option;
      const wrapper = document.createElement("div");
      wrapper.className = "option";
      const label = document.createElement("label");
      label.htmlFor = id;
      label.textContent = option;
      const input = document.createElement("input");
      input.id = id;
      input.dataset.option = option;
      input.autocomplete = "off";
      const written = this.tableValues?.[option];
      input.value = written === undefined ? "" : typeof written === "object" ? JSON.stringify(written) : String(written);
      input.placeholder = "default";
      wrapper.append(label, input);
      return wrapper;
    });
    $("options").replaceChildren(...fields);
  }

  /** The chords written, and a new one made of checked buttons and an action. */
  fillChords(written) {
    this.chords = written?.value && typeof written.value === "object" ? written.value : {};
    const items = Object.entries(this.chords).map(([buttons, action]) => {
      const item = document.createElement("li");
      item.textContent = buttons + " = " + toml.fromJSON(action);
      return item;
    });
    if (written && !written.text) {
      const item = document.createElement("li");
      item.textContent = "These are written as a table of their own: add a chord there, by hand.";
      items.push(item);
    }
    $("chord-list").replaceChildren(...items);
    const legend = $("chord-buttons").querySelector("legend");
    const boxes = this.vocabulary.buttons.map((button) => {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = button;
      box.name = "chord-button";
      label.append(box, " " + button);
      return label;
    });
    $("chord-buttons").replaceChildren(legend, ...boxes);
    $("chord-action").value = "";
  }

  /** The value the form says, as TOML text ("" for nothing). */
  composed() {
    if (this.key === "chords") {
      const pairs = Object.entries(this.chords || {}).map(([buttons, action]) => [buttons, toml.fromJSON(action)]);
      const buttons = [...document.querySelectorAll("input[name='chord-button']:checked")].map((box) => box.value);
      const action = $("chord-action").value.trim();
      if (buttons.length >= 2 && action) pairs.push([buttons.join("+"), toml.quoted(action)]);
      return toml.inlineTable(pairs);
    }
    if (this.vocabulary.buttons.includes(this.key)) {
      const shape = this.form.elements.shape.value;
      if (shape === "action") return $("action").value.trim() ? toml.quoted($("action").value.trim()) : "";
      if (shape === "together") {
        const codes = $("together").value.split(/[\s,+]+/).filter(Boolean);
        return codes.length ? "[" + codes.map(toml.quoted).join(", ") + "]" : "";
      }
      const pairs = [];
      if ($("tap").value.trim()) pairs.push(["tap", toml.quoted($("tap").value.trim())]);
      if ($("hold").value.trim()) pairs.push(["hold", toml.quoted($("hold").value.trim())]);
      if ($("hold-time").value.trim()) pairs.push(["hold-time", toml.quoted($("hold-time").value.trim())]);
      return pairs.length ? toml.inlineTable(pairs) : "";
    }
    if (this.key === "gyro") return this.gyro.composed();
    const pairs = [];
    if (this.key === "touchpad") pairs.push(["mode", toml.quoted($("mode").value)]);
    for (const input of $("options").querySelectorAll("input")) {
      if (input.value.trim()) pairs.push([input.dataset.option, toml.scalar(input.value)]);
    }
    return toml.inlineTable(pairs);
  }
}
