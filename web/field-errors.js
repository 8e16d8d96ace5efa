// A refused value's reason beside the field that caused it, in the page's words: the server's
// diagnostic names the setting's key path ("profile.gamepad.app.tap: unknown event code ..."),
// which says which of the form's fields holds the value; its line and column follow, small.

import { describe, label } from "./code-names.js";
import * as toml from "./toml-value.js";

const $ = (id) => document.getElementById(id);

/** The form's field for what follows `key` in a diagnostic's key path (`""`, `.tap`, `[1]`, `.speed`), or null. */
export function fieldFor(key, rest, buttons) {
  if (buttons.includes(key)) {
    const shape = document.querySelector("#setting-form input[name='shape']:checked")?.value;
    if (shape === "together") return $("together");
    const part = /^\.(tap|hold|hold-time)$/.exec(rest);
    if (part) return $(part[1]);
    return shape === "action" ? $("action") : null;
  }
  if (key === "touchpad" || key === "gyro") {
    const option = /^\.([A-Za-z0-9_-]+)$/.exec(rest);
    if (!option) return $("table-legend");
    return option[1] === "mode" ? $("mode") : $("option-" + option[1]) || $("table-legend");
  }
  if (key === "chords") return $("chord-action");
  return null;
}

/**
 * Where `diagnostic` belongs for `key` in `profile`, and what it says there: `{ field, text }`,
 * the field null when the diagnostic is about another setting or none of the form's fields.
 */
export function placed(diagnostic, profile, key, buttons, known) {
  const path = "profile." + toml.key(profile) + "." + toml.key(key);
  let message = diagnostic.message;
  let field = null;
  if (message.startsWith(path) && /^[.[:]/.test(message.slice(path.length))) {
    const colon = message.indexOf(": ", path.length);
    const rest = colon < 0 ? "" : message.slice(path.length, colon);
    field = fieldFor(key, rest, buttons);
    if (colon >= 0) message = message.slice(colon + 2);
  } else {
    const unknownKey = /^unknown key '([^']+)' in \[(.+)\]; (.*)$/.exec(message);
    if (unknownKey && unknownKey[2] === path) {
      field = fieldFor(key, "", buttons) || $("table-legend");
      message = "'" + unknownKey[1] + "' is not a setting here; " + unknownKey[3];
    }
  }
  return { field, text: inOurWords(message, known) + " (line " + diagnostic.line + ", column " + diagnostic.column + " of the file)" };
}

/** The decoder's sentence with a capital, and each code of `known` (a Map to devices) it names followed by what it is. */
export function inOurWords(message, known) {
  const named = message.replace(/\b((?:KEY|BTN|ABS|REL)_[A-Z0-9_]+)\b/g, (code) => {
    const description = known?.has(code) ? describe(code, known.get(code)) : null;
    return description ? code + " (" + label(description) + ")" : code;
  });
  return named.charAt(0).toUpperCase() + named.slice(1);
}

/** Shows `text` just after `field` (marked invalid), or after its words when it has them. */
export function showAt(field, text) {
  const error = document.createElement("p");
  error.className = "field-error";
  error.id = "error-for-" + field.id;
  error.setAttribute("role", "alert");
  error.textContent = text;
  const anchor = field.nextElementSibling?.classList.contains("field-words") ? field.nextElementSibling : field;
  anchor.after(error);
  if (field.tagName !== "LEGEND") {
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", error.id);
  }
  return error;
}

/** Every reason shown beside a field taken away. */
export function clearFieldErrors() {
  for (const error of document.querySelectorAll(".field-error")) {
    const field = $(error.id.replace(/^error-for-/, ""));
    field?.removeAttribute("aria-invalid");
    if (field?.getAttribute("aria-describedby") === error.id) field.removeAttribute("aria-describedby");
    error.remove();
  }
}
