// The chosen profile's settings, and the form that changes one: a button's action (one, tap
// and hold, or codes together) chosen from a searchable list, the touchpad's mode and options,
// the gyro's settings, or any setting's TOML value as written. Saving sends the value; the
// server checks it and writes it where it is in the file, or answers with the diagnostics,
// shown beside the field.

import { postSetting } from "./api.js";
import * as toml from "./toml-value.js";

const maximumChoices = 300;
const $ = (id) => document.getElementById(id);

export class Bindings {
  constructor(vocabulary, config) {
    this.vocabulary = vocabulary;
    this.path = config.path;
    this.revision = config.revision;
    this.outline = config.outline;
    this.profileName = null;
    this.key = null;
    this.armed = true;
    this.target = null;
    this.userChoseProfile = false;
    this.form = $("setting-form");
    this.wire();
    this.showText(config.text, config.syntax);
    this.renderProfiles();
  }

  // MARK: Profiles and the table

  get profile() {
    return (this.outline?.profiles || []).find((profile) => profile.name === this.profileName) || null;
  }

  setting(key) {
    return this.profile?.settings.find((setting) => setting.key === key) || null;
  }

  renderProfiles() {
    const select = $("profile");
    const names = (this.outline?.profiles || []).map((profile) => profile.name);
    select.replaceChildren(...names.map((name) => new Option(name, name)));
    if (!names.includes(this.profileName)) this.profileName = this.outline?.starting || names[0] || null;
    select.value = this.profileName || "";
    this.renderTable();
  }

  /** The bridge switched `address` to `name`: show that profile unless the user chose one. */
  liveProfile(name) {
    $("live-profile").textContent = name;
    if (this.userChoseProfile || name === this.profileName || !this.outline?.profiles.some((p) => p.name === name)) return;
    this.profileName = name;
    $("profile").value = name;
    this.renderTable();
    if (this.key) this.select(this.key);
  }

  renderTable() {
    const keys = [...this.vocabulary.buttons, "touchpad", "gyro", "chords"];
    for (const setting of this.profile?.settings || []) if (!keys.includes(setting.key)) keys.push(setting.key);
    const rows = keys.map((key) => {
      const row = document.createElement("tr");
      row.dataset.key = key;
      row.classList.toggle("selected", key === this.key);
      const header = document.createElement("th");
      header.scope = "row";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "select-setting";
      button.textContent = key;
      button.setAttribute("aria-label", "Edit " + key);
      button.addEventListener("click", () => this.select(key));
      header.append(button);
      const does = document.createElement("td");
      const written = this.setting(key);
      does.textContent = written ? written.text || "(a table of its own; edit it in the file)" : "nothing";
      row.append(header, does);
      return row;
    });
    $("binding-table").tBodies[0].replaceChildren(...rows);
  }

  // MARK: Press to select

  /** A controller button went down: select it while press-to-select is on, then turn that off. */
  pressed(button) {
    if (!this.armed) return;
    this.select(button);
    this.arm(false);
  }

  arm(on) {
    this.armed = on;
    $("press-to-select").setAttribute("aria-pressed", String(on));
    $("press-hint").textContent = on
      ? "Press a button on the controller to edit what it does."
      : "Selected. Press the toggle to select another button by pressing it.";
  }

  // MARK: The form

  select(key) {
    this.key = key;
    $("editing").textContent = key + " in " + this.profileName;
    for (const row of $("binding-table").tBodies[0].rows) row.classList.toggle("selected", row.dataset.key === key);
    this.form.hidden = false;
    this.clearErrors();
    const written = this.setting(key);
    const isButton = this.vocabulary.buttons.includes(key);
    $("button-fields").hidden = !isButton;
    $("table-fields").hidden = !(key === "touchpad" || key === "gyro");
    $("chord-fields").hidden = key !== "chords";
    $("chooser").hidden = true;
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
    }
    this.tableValues = table;
    this.renderOptions();
  }

  /** One labelled field per option, prefilled with what is written. */
  renderOptions() {
    const isTouchpad = this.key === "touchpad";
    const keys = isTouchpad
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

  /** The value the form says, as TOML text. */
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
    const pairs = [];
    if (this.key === "touchpad") pairs.push(["mode", toml.quoted($("mode").value)]);
    for (const input of $("options").querySelectorAll("input")) {
      if (input.value.trim()) pairs.push([input.dataset.option, toml.scalar(input.value)]);
    }
    return toml.inlineTable(pairs);
  }

  // MARK: The searchable list

  /** The list for a picker field, filtered by `query`. */
  showChoices(query) {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const entries = [
      ...this.vocabulary.actions.map((name) => [name, "action"]),
      ...(this.outline?.profiles || []).map((profile) => [this.vocabulary.profileSwitch + profile.name, "profile switch"]),
      ...this.vocabulary.codes,
    ];
    const matching = entries.filter(([name, device]) => {
      const text = (name + " " + device).toLowerCase();
      return words.every((word) => text.includes(word));
    });
    const options = matching.slice(0, maximumChoices).map(([name, device]) => {
      const option = new Option(name + " (" + device + ")", name);
      return option;
    });
    $("choices").replaceChildren(...options);
    $("chooser").hidden = false;
  }

  choose(name) {
    if (!this.target || !name) return;
    if (this.target.dataset.appends === "true") {
      const codes = this.target.value.split(/[\s,+]+/).filter(Boolean);
      codes.push(name);
      this.target.value = codes.join(" ");
    } else {
      this.target.value = name;
    }
    this.changed();
  }

  // MARK: Saving

  async save(value) {
    const profile = this.profileName;
    const key = this.key;
    this.clearErrors();
    $("save-status").textContent = "Saving...";
    let answer;
    try {
      answer = await postSetting(profile, key, value, this.revision);
    } catch (error) {
      this.showError("The editor did not answer: " + error.message);
      $("save-status").textContent = "Not saved.";
      return;
    }
    const { status, body } = answer;
    if (status === 200) {
      this.revision = body.revision;
      this.outline = body.outline;
      this.showText(body.text, body.syntax);
      this.renderTable();
      this.select(key);
      this.arm(true);
      $("save-status").textContent =
        (value ? "Saved " + key + " = " + value : "Removed " + key) + " in " + profile + "; the bridge reloads it.";
    } else if (status === 422) {
      const lines = body.diagnostics.map((d) => "line " + d.line + ", column " + d.column + ": " + d.message);
      this.showError(lines.join("\n"));
      $("save-status").textContent = "Not saved: the file is unchanged.";
    } else {
      this.showError(typeof body === "string" ? body : JSON.stringify(body));
      $("save-status").textContent = "Not saved: the file is unchanged.";
    }
  }

  showError(text) {
    $("value-error").textContent = text;
    $("value").setAttribute("aria-invalid", "true");
  }

  clearErrors() {
    $("value-error").textContent = "";
    $("value").removeAttribute("aria-invalid");
  }

  showText(text, syntax) {
    $("config-path").textContent = this.path ? "Editing " + this.path : "";
    $("config-text").textContent = text;
    if (syntax) {
      const d = syntax.diagnostics[0];
      $("save-status").textContent =
        "The file does not parse (line " + d.line + ", column " + d.column + ": " + d.message + "): fix it by hand first.";
    }
  }

  /** A field of the form changed: the composed value follows, and pressing stops selecting. */
  changed() {
    $("value").value = this.composed();
    if (this.armed) this.arm(false);
  }

  wire() {
    $("profile").addEventListener("change", () => {
      this.profileName = $("profile").value;
      this.userChoseProfile = true;
      this.renderTable();
      if (this.key) this.select(this.key);
    });
    $("press-to-select").addEventListener("click", () => this.arm(!this.armed));
    for (const radio of this.form.elements.shape) {
      radio.addEventListener("change", () => {
        this.showShape(radio.value);
        this.changed();
      });
    }
    $("mode").addEventListener("change", () => {
      this.renderOptions();
      this.changed();
    });
    this.form.addEventListener("input", (event) => {
      if (event.target.id === "value") {
        if (this.armed) this.arm(false);
        return;
      }
      if (event.target.id === "search" || event.target.id === "choices") return;
      if (event.target.classList.contains("picker")) {
        const words = event.target.value.split(/[\s,+]+/);
        $("search").value = words[words.length - 1] || "";
        this.showChoices($("search").value);
      }
      this.changed();
    });
    this.form.addEventListener("focusin", (event) => {
      if (!event.target.classList.contains("picker")) return;
      this.target = event.target;
      $("chooser-target").textContent = event.target.labels[0]?.textContent || event.target.id;
      const words = event.target.value.split(/[\s,+]+/);
      $("search").value = event.target.dataset.appends === "true" ? "" : words[words.length - 1] || "";
      this.showChoices($("search").value);
    });
    $("search").addEventListener("input", () => this.showChoices($("search").value));
    $("search").addEventListener("keydown", (event) => {
      if (event.key === "ArrowDown" && $("choices").options.length) {
        event.preventDefault();
        $("choices").selectedIndex = 0;
        $("choices").focus();
      }
    });
    $("choices").addEventListener("change", () => this.choose($("choices").value));
    $("choices").addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.choose($("choices").value);
        this.target?.focus();
      }
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.save($("value").value.trim());
    });
    $("remove").addEventListener("click", () => this.save(""));
  }
}
