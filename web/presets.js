// Starting from a preset, and the config's profiles as whole tables: the first run without a
// config offers to make one from a preset; the profiles panel lists every profile (the one new
// controllers start in, the one the bridge runs now, its focus rules) and adds one from a
// preset, copies, renames and removes one. The server makes each change in the file, checked
// first, only over the revision the page has, keeping every other line.

import { getJSON, saveTimeoutSeconds } from "./api.js";
import { showFile } from "./save-flow.js";

const $ = (id) => document.getElementById(id);

/** An element with `properties` (`className`, `textContent`...) and `children`. */
function make(tag, properties = {}, ...children) {
  const element = Object.assign(document.createElement(tag), properties);
  element.append(...children);
  return element;
}

/** POSTs a form; `{ status, body }`, the body JSON when the server sent JSON, else its text. */
async function post(path, fields) {
  const response = await fetch(path, {
    method: "POST", body: new URLSearchParams(fields), signal: AbortSignal.timeout(saveTimeoutSeconds * 1000),
  });
  const text = await response.text();
  const json = (response.headers.get("Content-Type") || "").startsWith("application/json");
  return { status: response.status, body: json ? JSON.parse(text) : text.trim() };
}

/** A refusal in the page's words: the checker's diagnostics, or the server's reason. */
function reasonOf(status, body) {
  if (Array.isArray(body?.diagnostics)) {
    return "the result would not be a valid config: "
      + body.diagnostics.map((d) => d.message + " (line " + d.line + ", column " + d.column + ")").join("; ");
  }
  if (status === 403) return "this page's session has ended: run daydream-bridge ui again and open the address it prints";
  return typeof body === "string" && body ? body : "refused (" + status + ")";
}

/**
 * Without a config file: when the server says where one would go, offers the presets and makes
 * the file from the chosen one; `onCreated(config)` gets it as `GET /api/config` gives it.
 */
export async function offerPresets(onCreated) {
  let answer;
  try {
    answer = await getJSON("/api/presets");
  } catch {
    return;
  }
  if (!answer.create) return;
  const section = make("section", { id: "first-run" });
  section.setAttribute("aria-labelledby", "first-run-heading");
  const choices = make("fieldset", {}, make("legend", { textContent: "Presets" }));
  for (const [index, preset] of answer.presets.entries()) {
    const radio = make("input", { type: "radio", name: "preset", value: preset.name, checked: index === 0 });
    choices.append(make("label", { className: "preset" }, radio, " ", make("strong", { textContent: preset.title }), " ",
      make("span", { className: "summary", textContent: preset.summary })));
  }
  const create = make("button", { type: "button", id: "create-config", textContent: "Create my config" });
  const status = make("p", { id: "first-run-status", role: "status" });
  section.append(
    make("h2", { id: "first-run-heading", textContent: "Start from a preset" }),
    make("p", { textContent: "There is no config file yet. Choose what the controller should be; the page writes it to " },
      make("code", { id: "new-config-path", textContent: answer.create }),
      ", where the bridge looks for it, and you can change every part of it below."),
    choices, create, status);
  document.querySelector("main").prepend(section);
  create.addEventListener("click", async () => {
    const preset = choices.querySelector("input:checked")?.value;
    create.disabled = true;
    status.textContent = "Creating...";
    try {
      const { status: code, body } = await post("/api/create", { preset });
      if (code !== 201) {
        status.textContent = "Not created: " + reasonOf(code, body) + ".";
        return;
      }
      section.remove();
      const running = document.body.dataset.bridge === "live"
        ? " A bridge that is running uses it once restarted (systemctl --user restart daydream-bridge)." : "";
      $("save-status").textContent = "Created " + body.path + " from the " + preset + " preset." + running;
      onCreated(body);
    } catch (error) {
      status.textContent = "Not created: no answer from daydream-bridge ui (" + (error?.message || error) + ").";
    } finally {
      create.disabled = false;
    }
  });
}

/** The profiles panel, beside the mapping; changes go through `bindings`' revision and outline. */
export class ProfilePanel {
  constructor(bindings, presets) {
    this.bindings = bindings;
    this.presets = presets;
    this.live = null;
    this.section = make("section", { id: "profiles" });
    this.section.setAttribute("aria-labelledby", "profiles-heading");
    this.running = make("p", { id: "running-profile", role: "status" });
    this.list = make("ul", { id: "profile-cards" });
    this.status = make("p", { id: "profile-status", role: "status" });
    this.section.append(make("h2", { id: "profiles-heading", textContent: "Profiles" }), this.running, this.list, this.addForm(), this.status);
    $("bindings").after(this.section);
    // A setting saved in the editor (focus rules among them) changes the outline: follow it.
    new MutationObserver(() => this.render()).observe($("config-text"), { childList: true, characterData: true, subtree: true });
    this.render();
  }

  get outline() {
    return this.bindings.profiles.outline;
  }

  /** The bridge runs `name` now. */
  liveProfile(name) {
    this.live = name;
    this.render();
  }

  addForm() {
    const form = make("form", { id: "add-profile" });
    const preset = make("select", { id: "add-preset" });
    for (const entry of this.presets) preset.append(new Option(entry.title, entry.name));
    const name = make("input", { id: "add-name", autocomplete: "off", spellcheck: false, required: true });
    preset.addEventListener("change", () => { name.value = this.freeName(this.presetProfile(preset.value)); });
    name.value = this.freeName(this.presetProfile(preset.value));
    form.append(make("h3", { textContent: "Add a profile from a preset" }),
      make("label", { htmlFor: "add-preset", textContent: "Preset" }), preset,
      make("label", { htmlFor: "add-name", textContent: "Its name" }), name,
      make("button", { type: "submit", id: "add-profile-button", textContent: "Add the profile" }));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.change({ action: "add", preset: preset.value, name: name.value.trim() }, "Added " + name.value.trim());
    });
    return form;
  }

  presetProfile(name) {
    return this.presets.find((preset) => preset.name === name)?.profile || name;
  }

  /** `base`, or `base-2`, `base-3`... the first name no profile has. */
  freeName(base) {
    const names = (this.outline?.profiles || []).map((profile) => profile.name);
    if (!names.includes(base)) return base;
    let number = 2;
    while (names.includes(base + "-" + number)) number += 1;
    return base + "-" + number;
  }

  render() {
    const profiles = this.outline?.profiles || [];
    const starting = this.outline?.starting || profiles[0]?.name;
    this.running.textContent = this.live
      ? "The bridge runs the profile " + this.live + " now."
      : "New controllers start in " + (starting || "no profile") + "; no running bridge has told its profile yet.";
    this.list.replaceChildren(...profiles.map((profile) => this.card(profile, profile.name === starting)));
    const name = $("add-name");
    if (name && !name.value) name.value = this.freeName(this.presetProfile($("add-preset").value));
  }

  card(profile, isStart) {
    const item = make("li", { className: "profile-card" });
    item.dataset.profile = profile.name;
    const badges = make("span", { className: "badges" });
    if (isStart) badges.append(make("span", { className: "badge", textContent: "new controllers start here" }));
    if (profile.name === this.live) badges.append(make("span", { className: "badge live", textContent: "the bridge runs it now" }));
    const rules = profile.settings.find((setting) => setting.key === "applications");
    const focus = make("p", { className: "focus-rules" },
      "Focus rules: ", rules ? make("code", { textContent: rules.text }) : "none (it is not chosen by the focused application)");
    const editRules = make("button", { type: "button", className: "edit-rules", textContent: "Edit focus rules" });
    editRules.addEventListener("click", () => this.editRules(profile.name));
    const actions = make("p", { className: "profile-actions" });
    for (const [label, handler] of [["Copy", () => this.ask(item, profile.name, "copy")], ["Rename", () => this.ask(item, profile.name, "rename")],
      ["Remove", () => this.confirmRemove(item, profile.name, isStart)]]) {
      const button = make("button", { type: "button", textContent: label });
      button.dataset.action = label.toLowerCase();
      button.setAttribute("aria-label", label + " " + profile.name);
      button.addEventListener("click", handler);
      actions.append(button);
    }
    actions.append(editRules);
    item.append(make("strong", { className: "profile-name", textContent: profile.name }), " ", badges, focus, actions);
    return item;
  }

  /** Opens the editor on `profile`'s `applications`, a list of patterns. */
  editRules(profile) {
    const select = $("profile");
    select.value = profile;
    select.dispatchEvent(new Event("change"));
    this.bindings.chose("applications");
    $("value").focus();
  }

  /** A name for the copy or the new name, asked for in the profile's card. */
  ask(item, profile, action) {
    item.querySelector("form")?.remove();
    const input = make("input", { className: "new-name", autocomplete: "off", spellcheck: false, required: true });
    input.value = action === "copy" ? this.freeName(profile + "-copy") : profile;
    input.setAttribute("aria-label", (action === "copy" ? "Name of the copy of " : "New name of ") + profile);
    const form = make("form", { className: "name-form" }, input,
      make("button", { type: "submit", className: "confirm", textContent: action === "copy" ? "Copy" : "Rename" }));
    const cancel = make("button", { type: "button", textContent: "Cancel" });
    cancel.addEventListener("click", () => form.remove());
    form.append(cancel);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = input.value.trim();
      const verb = action === "copy" ? "Copied " + profile + " as " : "Renamed " + profile + " to ";
      const note = action === "rename" && profile === this.live ? " The bridge ran it: on reload its controllers go to the start profile." : "";
      this.change({ action, profile, name }, verb + name, note);
    });
    item.append(form);
    input.focus();
    input.select();
  }

  /** Removing asks once more in the card, and says what the bridge will do. */
  confirmRemove(item, profile, isStart) {
    item.querySelector("form")?.remove();
    const count = this.outline?.profiles.length || 0;
    if (count < 2 || isStart) {
      // The server refuses these too; saying why here saves a round trip.
      this.status.textContent = count < 2
        ? "Not removed: " + profile + " is the only profile, and a config needs one. Add another first."
        : "Not removed: " + profile + " is the profile new controllers start in ([bridge] profile). Name another there first.";
      return;
    }
    const warning = profile === this.live ? " The bridge runs it now: on reload its controllers go to the start profile." : "";
    const form = make("form", { className: "name-form" }, make("span", { textContent: "Remove " + profile + " and its lines from the file?" + warning }),
      make("button", { type: "submit", className: "confirm", textContent: "Remove it" }));
    const cancel = make("button", { type: "button", textContent: "Keep it" });
    cancel.addEventListener("click", () => form.remove());
    form.append(cancel);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.change({ action: "remove", profile }, "Removed " + profile);
    });
    item.append(form);
  }

  /** Sends one change over the page's revision; the editor, the file and the panel follow it. */
  async change(fields, done, note = "") {
    this.status.textContent = "Saving...";
    try {
      const { status, body } = await post("/api/profile", { ...fields, revision: this.bindings.revision });
      if (status !== 200) {
        this.status.textContent = "Not saved (the file is unchanged): " + reasonOf(status, body) + ".";
        return;
      }
      this.bindings.revision = body.revision;
      const list = this.bindings.profiles;
      list.outline = body.outline;
      if (fields.action !== "remove" && fields.name) {
        list.name = fields.name;
        list.userChose = true;
      }
      list.render();
      showFile(this.bindings.path, body.text, body.syntax);
      this.status.textContent = done + "; the bridge reloads the file." + note;
    } catch (error) {
      this.status.textContent = "Perhaps not saved: no answer from daydream-bridge ui (" + (error?.message || error) + "); reload the page.";
    }
  }
}
