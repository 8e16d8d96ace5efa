// The searchable list for a picker field (an action or event code): typing in the field or the
// search box narrows it, by a player's words or by the code ("space", "cross", "KEY_SP");
// each choice shows both ("Space - keyboard  KEY_SPACE"); choosing puts the code in the field
// (added to the codes for a field that appends, as the codes pressed together).

import { describe, label, rank } from "./code-names.js";

const maximumChoices = 300;
const $ = (id) => document.getElementById(id);

export class Chooser {
  /**
   * `entries()` gives the [code, device] pairs to choose from; `onChosen()` follows a choice;
   * `profileSwitch` is the prefix of a profile switch (`profile:`).
   */
  constructor(form, entries, onChosen, profileSwitch = "profile:") {
    this.entries = entries;
    this.profileSwitch = profileSwitch;
    this.onChosen = onChosen;
    this.target = null;
    form.addEventListener("focusin", (event) => {
      if (!event.target.classList.contains("picker")) return;
      this.target = event.target;
      $("chooser-target").textContent = event.target.labels[0]?.textContent || event.target.id;
      const words = event.target.value.split(/[\s,+]+/);
      $("search").value = event.target.dataset.appends === "true" ? "" : words[words.length - 1] || "";
      this.show($("search").value);
    });
    form.addEventListener("input", (event) => {
      if (!event.target.classList.contains("picker")) return;
      const words = event.target.value.split(/[\s,+]+/);
      $("search").value = words[words.length - 1] || "";
      this.show($("search").value);
    });
    $("search").addEventListener("input", () => this.show($("search").value));
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
  }

  hide() {
    $("chooser").hidden = true;
  }

  /** The list, filtered by `query`: every word in the player's name, the device or the code; the best first. */
  show(query) {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const ranked = [];
    for (const [code, device] of this.entries()) {
      const description = describe(code, device, this.profileSwitch) || { name: code, device, code };
      const place = rank(description, words);
      if (place !== null) ranked.push({ place, order: ranked.length, description });
    }
    ranked.sort((a, b) => a.place - b.place || a.order - b.order);
    const options = ranked.slice(0, maximumChoices).map(({ description }) => {
      const text = description.name === description.code ? label(description) : label(description) + "  \u00b7  " + description.code;
      const option = new Option(text, description.code);
      option.title = description.code;
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
    this.onChosen();
  }
}
