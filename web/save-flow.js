// Saving one setting: the value goes to the server with the file's revision as the page has
// it; the server checks it and writes it where it is in the file, or refuses. However it
// ends (saved, refused, no answer, ui gone), the status says so and when, never "Saving..."
// left behind, and the reason is beside the field that caused it in a player's words (a
// syntax slip in the TOML typed by hand: beside that, with the raw view unfolded at its line),
// the server's own where it gave some.

import { postSetting, saveTimeoutSeconds } from "./api.js";
import { clearFieldErrors, placed, showAt } from "./field-errors.js";
import { showSlip, showText, showTOML } from "./raw-view.js";
import { tell } from "./status-line.js";

const $ = (id) => document.getElementById(id);

/** The file's text as the page last showed it in the raw view. */
let shownText = "";

/** The reason a save was not made that belongs to no one field: beside Save. */
export function showError(text) {
  $("value-error").textContent = text;
}

/** Every reason taken away, and the raw view back to the file as it is. */
export function clearErrors() {
  $("value-error").textContent = "";
  $("value").removeAttribute("aria-invalid");
  clearFieldErrors();
  if (!$("raw-slip").hidden) showText(shownText);
}

/** The config file as the server last gave it: its path, its text, and whether it parses. */
export function showFile(path, text, syntax) {
  $("config-path").textContent = path ? "Editing " + path : "";
  shownText = text;
  showText(text);
  if (syntax) {
    const d = syntax.diagnostics[0];
    showSlip({ line: d.line, column: d.column, sentence: d.message });
    tell("The file does not parse (line " + d.line + ", column " + d.column + "): " + d.message + " Fix it by hand first. ({time})");
  }
}

/**
 * The line a refused `value` for `key` would have made at the slip's `line`: the written
 * value's line with the value in its place (`written`: the outline's setting), or `key = value`
 * on a line of its own where the setting was not written. Null when that is not one line.
 */
export function editedLine(text, key, value, written, line) {
  if (!written) return { text: key + " = " + value, inserted: true };
  const lines = text.split("\n");
  const original = lines[written.line - 1];
  if (written.line !== line || original === undefined || !written.text || written.text.includes("\n")) return null;
  const start = written.column - 1;
  if (original.slice(start, start + written.text.length) !== written.text) return null;
  return { text: original.slice(0, start) + value + original.slice(start + written.text.length), inserted: false };
}

/**
 * The server's diagnostics for a refused value, each where it belongs: a syntax slip beside the
 * TOML typed (unfolded) and in the raw view at its line, a setting's problem beside its field,
 * the rest beside Save. `context` is the save's `{ profile, key, value, written, buttons, known }`.
 */
export function placeDiagnostics(diagnostics, context) {
  const unplaced = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.syntax) {
      const text = diagnostic.message + " (line " + diagnostic.line + ", column " + diagnostic.column + ")";
      showTOML(true);
      showAt($("value"), text);
      const edited = editedLine(shownText, context.key, context.value, context.written, diagnostic.line);
      showSlip({ line: diagnostic.line, column: diagnostic.column, sentence: diagnostic.message, edited });
      continue;
    }
    const { field, text } = placed(diagnostic, context.profile, context.key, context.buttons || [], context.known);
    if (field) showAt(field, text);
    else unplaced.push(text);
  }
  if (unplaced.length) showError(unplaced.join("\n"));
}

/**
 * What a save the server answered but did not make says: `reason` beside the field, `status`
 * under the form. The server leaves the file untouched unless it answers 200.
 */
export function refusal(status, statusText, body) {
  const unchanged = "Not saved: the file is unchanged.";
  const diagnostics = Array.isArray(body?.diagnostics) ? body.diagnostics : [];
  if (diagnostics.length) {
    const lines = diagnostics.map((d) => "line " + d.line + ", column " + d.column + ": " + d.message);
    return { reason: lines.join("\n"), diagnostics, status: unchanged };
  }
  const text = typeof body === "string" ? body : "";
  if (status === 403) {
    return {
      reason: "This page's session with daydream-bridge ui has ended (" + (text || "forbidden") + "). "
        + "Run daydream-bridge ui again and open the address it prints.",
      status: "Not saved: the page's session has ended; the file is unchanged.",
    };
  }
  if (status === 409) {
    return { reason: text || "The file changed since this page loaded it: reload the page and make the change again.", status: unchanged };
  }
  if (status >= 500) return { reason: "The file could not be written: " + (text || statusText || status), status: unchanged };
  return { reason: text || "daydream-bridge ui refused the save (" + status + " " + statusText + ").", status: unchanged };
}

/** What a save with no answer says: ui stopped answering, cannot be reached, or the page failed. */
export function failure(error) {
  if (error?.name === "TimeoutError" || error?.name === "AbortError") {
    return {
      reason: "daydream-bridge ui did not answer within " + saveTimeoutSeconds + " seconds (is it stopped or stuck?). "
        + "Reload the page to see whether the file changed.",
      status: "Perhaps not saved: no answer came.",
    };
  }
  if (error instanceof TypeError) {
    return {
      reason: "The page cannot reach daydream-bridge ui: it has stopped, or the connection broke. "
        + "Run daydream-bridge ui again and open the address it prints.",
      status: "Not saved: no connection to daydream-bridge ui.",
    };
  }
  return {
    reason: "The page failed while saving (" + (error?.message || error) + "). Reload the page to see the file as it is.",
    status: "Perhaps not saved: reload the page.",
  };
}

function busy(on) {
  $("save").disabled = on;
  $("remove").disabled = on;
  $("setting-form").setAttribute("aria-busy", String(on));
}

/**
 * Saves `value` (TOML text, "" removes the key) for `key` in `profile` over the file's
 * `revision`; `onSaved(body)` gets the server's answer (the new text, revision and outline)
 * when it was written. Save and Remove wait while it is under way. `written` (the outline's
 * setting), `buttons` and `known` (the codes with their devices) place a refusal's reasons.
 */
export async function save(context, onSaved) {
  const { profile, key, value, revision } = context;
  clearErrors();
  tell("Saving...");
  busy(true);
  let outcome;
  try {
    const { status, statusText, body } = await postSetting(profile, key, value, revision);
    if (status === 200) {
      onSaved(body);
      outcome = {
        status: (value ? "Saved " + key + " in '" + profile + "' at {time} (" + key + " = " + value + ")" : "Removed " + key + " from '" + profile + "' at {time}")
          + ".",
      };
    } else {
      outcome = refusal(status, statusText, body);
    }
  } catch (error) {
    outcome = failure(error);
  } finally {
    busy(false);
  }
  if (outcome.diagnostics) placeDiagnostics(outcome.diagnostics, context);
  else if (outcome.reason) showError(outcome.reason);
  tell(outcome.status.replace(/^(Not saved|Perhaps not saved)/, "$1 at {time}"));
}
