// Saving one setting: the value goes to the server with the file's revision as the page has
// it; the server checks it and writes it where it is in the file, or refuses. However it
// ends (saved, refused, no answer, ui gone), the status says so, never "Saving..." left
// behind, and the reason is beside the value field in a player's words, the server's own
// where it gave some.

import { postSetting, saveTimeoutSeconds } from "./api.js";

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
 * What a save the server answered but did not make says: `reason` beside the field, `status`
 * under the form. The server leaves the file untouched unless it answers 200.
 */
export function refusal(status, statusText, body) {
  const unchanged = "Not saved: the file is unchanged.";
  const diagnostics = Array.isArray(body?.diagnostics) ? body.diagnostics : [];
  if (diagnostics.length) {
    const lines = diagnostics.map((d) => "line " + d.line + ", column " + d.column + ": " + d.message);
    return { reason: lines.join("\n"), status: unchanged };
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
 * when it was written. Save and Remove wait while it is under way.
 */
export async function save({ profile, key, value, revision }, onSaved) {
  clearErrors();
  $("save-status").textContent = "Saving...";
  busy(true);
  let outcome;
  try {
    const { status, statusText, body } = await postSetting(profile, key, value, revision);
    if (status === 200) {
      onSaved(body);
      outcome = { status: (value ? "Saved " + key + " = " + value : "Removed " + key) + " in " + profile + "; the bridge reloads it." };
    } else {
      outcome = refusal(status, statusText, body);
    }
  } catch (error) {
    outcome = failure(error);
  } finally {
    busy(false);
  }
  if (outcome.reason) showError(outcome.reason);
  $("save-status").textContent = outcome.status;
}
