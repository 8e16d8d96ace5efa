// The searchable list for a picker field (an action or event code): typing in the field or the
// search box narrows it; choosing puts the name in the field (added to the codes for a field
// that appends, as the codes pressed together).

const maximumChoices = 300;
const $ = (id) => document.getElementById(id);

export class Chooser {
  /** `entries()` gives the [name, device] pairs to choose from; `onChosen()` follows a choice. */
  constructor(form, entries, onChosen) {
    this.entries = entries;
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

  /** The list, filtered by `query`: every word in the name or the device. */
  show(query) {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const matching = this.entries().filter(([name, device]) => {
      const text = (name + " " + device).toLowerCase();
      return words.every((word) => text.includes(word));
    });
    const options = matching.slice(0, maximumChoices).map(([name, device]) => new Option(name + " (" + device + ")", name));
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
