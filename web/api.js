// The page's requests to `daydream-bridge ui`: each carries the session's cookie, which the
// one-time address the command printed (or opened) left; the page never sees its secret.

/** How long a save waits for its answer before the page stops waiting. */
export const saveTimeoutSeconds = 10;

/** GET a JSON API; throws an Error with the server's text when it is not 200. */
export async function getJSON(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
  return response.json();
}

/**
 * POST one setting: `value` is TOML text, or "" to remove the key; `revision` the file's as
 * the page last had it (the server refuses, 409, when the file changed since). Resolves to
 * `{ status, statusText, body }`: 200 with the new text, revision and outline; a refusal with
 * diagnostics (`{ diagnostics: [{ line, column, message }] }`) or a text. Rejects when no
 * answer came: a TypeError when ui cannot be reached, a "TimeoutError" after
 * `saveTimeoutSeconds`.
 */
export async function postSetting(profile, key, value, revision) {
  const form = new URLSearchParams({ profile, key, value, revision });
  const response = await fetch("/api/setting", { method: "POST", body: form, signal: AbortSignal.timeout(saveTimeoutSeconds * 1000) });
  const type = response.headers.get("Content-Type") || "";
  const text = await response.text();
  let body = text.trim();
  if (type.startsWith("application/json")) {
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON after all: the text is the answer.
    }
  }
  return { status: response.status, statusText: response.statusText, body };
}

/** The live stream: `bridge`, `state` (decoded packets) and `watch` (other lines) events. */
export function openEvents(handlers) {
  const events = new EventSource("/api/events");
  for (const [name, handler] of Object.entries(handlers)) {
    events.addEventListener(name, (event) => handler(event.data));
  }
  return events;
}
