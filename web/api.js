// The page's requests to `daydream-bridge ui`: each carries the session's cookie, which the
// one-time address the command printed (or opened) left; the page never sees its secret.

/** GET a JSON API; throws an Error with the server's text when it is not 200. */
export async function getJSON(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
  return response.json();
}

/**
 * POST one setting: `value` is TOML text, or "" to remove the key; `revision` the file's as
 * the page last had it (the server refuses, 409, when the file changed since). Resolves to
 * `{ status, body }`: 200 with the new text, revision and outline, 422 with diagnostics, else
 * a text.
 */
export async function postSetting(profile, key, value, revision) {
  const form = new URLSearchParams({ profile, key, value, revision });
  const response = await fetch("/api/setting", { method: "POST", body: form });
  const type = response.headers.get("Content-Type") || "";
  const body = type.startsWith("application/json") ? await response.json() : (await response.text()).trim();
  return { status: response.status, body };
}

/** The live stream: `bridge`, `state` (decoded packets) and `watch` (other lines) events. */
export function openEvents(handlers) {
  const events = new EventSource("/api/events");
  for (const [name, handler] of Object.entries(handlers)) {
    events.addEventListener(name, (event) => handler(event.data));
  }
  return events;
}
