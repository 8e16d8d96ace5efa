// The mapping editor: the profile list and its table, the form for the selected setting with
// its searchable list, press to select, and saving. Each part is a module of its own; this
// one puts them together and follows the bridge's live profile.

import { Chooser } from "./chooser.js";
import { refreshFieldWords } from "./field-words.js";
import { ProfileList } from "./profile-list.js";
import { wireTOMLToggle } from "./raw-view.js";
import { clearErrors, save, showFile } from "./save-flow.js";
import { SettingForm } from "./setting-form.js";
import { bringEditorIntoView } from "./tap-to-edit.js";

const $ = (id) => document.getElementById(id);

export class Bindings {
  constructor(vocabulary, config) {
    this.vocabulary = vocabulary;
    this.path = config.path;
    this.revision = config.revision;
    this.key = null;
    this.armed = true;
    this.profiles = new ProfileList(vocabulary, config.outline, {
      onSelect: (key) => this.chose(key),
      onChosen: () => this.key && this.select(this.key),
    });
    this.form = new SettingForm(vocabulary, () => this.changed());
    this.chooser = new Chooser(this.form.form, () => this.choices(), () => this.changed(), vocabulary.profileSwitch);
    /** Each code's device, for the words shown beside the fields. */
    this.devices = new Map(vocabulary.codes);
    this.wire();
    showFile(this.path, config.text, config.syntax);
  }

  /** The bridge switched to `name`: shown, and followed in the table unless the user chose a profile. */
  liveProfile(name) {
    $("live-profile").textContent = name;
    if (this.profiles.follow(name) && this.key) this.select(this.key);
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

  /** The user picked `key` (its row, or its control on the picture): the choice holds, so
   *  pressing stops selecting; the form comes into view. */
  chose(key) {
    this.select(key);
    if (this.armed) this.arm(false);
    bringEditorIntoView();
  }

  select(key) {
    this.key = key;
    $("editing").textContent = key + " in " + this.profiles.name;
    this.profiles.select(key);
    clearErrors();
    this.chooser.hide();
    this.form.show(key, this.profiles.setting(key));
    refreshFieldWords(this.form.form, this.devices, this.vocabulary.profileSwitch);
  }

  /** What the searchable list offers: the actions, a switch to each profile, every code. */
  choices() {
    return [
      ...this.vocabulary.actions.map((name) => [name, "action"]),
      ...this.profiles.names.map((name) => [this.vocabulary.profileSwitch + name, "profile switch"]),
      ...this.vocabulary.codes,
    ];
  }

  /** A field of the form changed: the composed value follows, and pressing stops selecting. */
  changed() {
    $("value").value = this.form.composed();
    refreshFieldWords(this.form.form, this.devices, this.vocabulary.profileSwitch);
    if (this.armed) this.arm(false);
  }

  async save(value) {
    const profile = this.profiles.name;
    const key = this.key;
    const context = {
      profile, key, value, revision: this.revision, written: this.profiles.setting(key),
      buttons: this.vocabulary.buttons, known: this.devices,
    };
    await save(context, (body) => {
      this.revision = body.revision;
      this.profiles.update(body.outline);
      showFile(this.path, body.text, body.syntax);
      // The saved setting stays in the form; a press selects another only once the toggle is on again.
      this.select(key);
    });
  }

  wire() {
    wireTOMLToggle();
    $("press-to-select").addEventListener("click", () => this.arm(!this.armed));
    this.form.form.addEventListener("input", (event) => {
      if (event.target.id === "value") {
        if (this.armed) this.arm(false);
        return;
      }
      if (event.target.id === "search" || event.target.id === "choices") return;
      this.changed();
    });
    this.form.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.save($("value").value.trim());
    });
    $("remove").addEventListener("click", () => this.save(""));
  }
}
