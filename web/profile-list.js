// The config's profiles as the page last had its outline: the profile chooser, and the chosen
// profile's table of what each control does, each row's name a button that edits it, what it
// does in a player's words with the TOML small beside them.

import { valueWords } from "./code-names.js";

const $ = (id) => document.getElementById(id);

export class ProfileList {
  /** `onSelect(key)` when a row's button is pressed; `onChosen()` when the user picks a profile. */
  constructor(vocabulary, outline, { onSelect, onChosen }) {
    this.vocabulary = vocabulary;
    this.outline = outline;
    this.name = null;
    this.selectedKey = null;
    this.userChose = false;
    this.onSelect = onSelect;
    $("profile").addEventListener("change", () => {
      this.name = $("profile").value;
      this.userChose = true;
      this.renderTable();
      onChosen();
    });
    this.render();
  }

  /** The profiles' names, in the file's order. */
  get names() {
    return (this.outline?.profiles || []).map((profile) => profile.name);
  }

  /** The chosen profile's outline, or null. */
  get profile() {
    return (this.outline?.profiles || []).find((profile) => profile.name === this.name) || null;
  }

  /** What the chosen profile writes for `key`, or null. */
  setting(key) {
    return this.profile?.settings.find((setting) => setting.key === key) || null;
  }

  /** The outline after a save: the table follows it. */
  update(outline) {
    this.outline = outline;
    this.renderTable();
  }

  /** The bridge switched to `name`: show that profile unless the user chose one. True when the shown one changed. */
  follow(name) {
    if (this.userChose || name === this.name || !this.names.includes(name)) return false;
    this.name = name;
    $("profile").value = name;
    this.renderTable();
    return true;
  }

  /** Marks `key`'s row as the one being edited. */
  select(key) {
    this.selectedKey = key;
    for (const row of $("binding-table").tBodies[0].rows) row.classList.toggle("selected", row.dataset.key === key);
  }

  render() {
    const select = $("profile");
    const names = this.names;
    select.replaceChildren(...names.map((name) => new Option(name, name)));
    if (!names.includes(this.name)) this.name = this.outline?.starting || names[0] || null;
    select.value = this.name || "";
    this.renderTable();
  }

  renderTable() {
    const keys = [...this.vocabulary.buttons, "touchpad", "gyro", "chords"];
    for (const setting of this.profile?.settings || []) if (!keys.includes(setting.key)) keys.push(setting.key);
    const rows = keys.map((key) => {
      const row = document.createElement("tr");
      row.dataset.key = key;
      row.classList.toggle("selected", key === this.selectedKey);
      const header = document.createElement("th");
      header.scope = "row";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "select-setting";
      button.textContent = key;
      button.setAttribute("aria-label", "Edit " + key);
      button.addEventListener("click", () => this.onSelect(key));
      header.append(button);
      const does = document.createElement("td");
      const written = this.setting(key);
      does.textContent = written ? written.text || "(a table of its own; edit it in the file)" : "nothing";
      const words = written ? valueWords(written.value, new Map(this.vocabulary.codes), this.vocabulary.profileSwitch) : "";
      if (words) {
        const name = document.createElement("span");
        name.className = "words";
        name.textContent = words;
        const raw = document.createElement("code");
        raw.className = "raw";
        raw.textContent = written.text;
        does.replaceChildren(name, raw);
      }
      row.append(header, does);
      return row;
    });
    $("binding-table").tBodies[0].replaceChildren(...rows);
  }
}
