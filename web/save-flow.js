// Saving one setting: the value goes to the server with the file's revision as the page has
// it; the server checks it and writes it where it is in the file, or refuses. The outcome is
// said in the save status, a refusal's reason beside the value field.

import { postSetting } from "./api.js";

const $ = (id) => document.getElementById(id);

/** The reason a value was not taken, beside the field (marked invalid). */
export function showError(text) {
  $("value-error").textContent = text;
  $("value").setAttribute("aria-invalid", "true");
}

export function clearErrors() {
  $("value-error").textContent = "";
  $("value").removeAttribute("aria-invalid");
}

/** The config file as the server last gave it: its path, its text, and whether it parses. */
export function showFile(path, text, syntax) {
  $("config-path").textContent = path ? "Editing " + path : "";
  $("config-text").textContent = text;
  if (syntax) {
    const d = syntax.diagnostics[0];
    $("save-status").textContent =
      "The file does not parse (line " + d.line + ", column " + d.column + ": " + d.message + "): fix it by hand first.";
  }
}

/**
 * Saves `value` (TOML text, "" removes the key) for `key` in `profile` over the file's
 * `revision`; `onSaved(body)` gets the server's answer (the new text, revision and outline)
 * when it was written.
 */
export async function save({ profile, key, value, revision }, onSaved) {
  clearErrors();
  $("save-status").textContent = "Saving...";
  let answer;
  try {
    answer = await postSetting(profile, key, value, revision);
  } catch (error) {
    showError("The editor did not answer: " + error.message);
    $("save-status").textContent = "Not saved.";
    return;
  }
  const { status, body } = answer;
  if (status === 200) {
    onSaved(body);
    $("save-status").textContent =
      (value ? "Saved " + key + " = " + value : "Removed " + key) + " in " + profile + "; the bridge reloads it.";
  } else if (status === 422) {
    const lines = body.diagnostics.map((d) => "line " + d.line + ", column " + d.column + ": " + d.message);
    showError(lines.join("\n"));
    $("save-status").textContent = "Not saved: the file is unchanged.";
  } else {
    showError(typeof body === "string" ? body : JSON.stringify(body));
    $("save-status").textContent = "Not saved: the file is unchanged.";
  }
}
