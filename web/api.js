// The page's requests to `daydream-bridge ui`: each carries the token from the address the
// command printed (the first load also leaves it in a cookie for the page's own files).

const token = new URLSearchParams(location.search).get("token") || "";
const headers = { "X-Daydream-Token": token };

/** GET a JSON API; throws an Error with the server's text when it is not 200. */
export async function getJSON(path) {
  const response = await fetch(path, { headers });
  if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
  return response.json();
}

/**
 * POST one setting: `value` is TOML text, or "" to remove the key. Resolves to
 * `{ status, body }`: 200 with the new text and outline, 422 with diagnostics, else a text.
 */
export async function postSetting(profile, key, value) {
  const form = new URLSearchParams({ profile, key, value });
  const response = await fetch("/api/setting", { method: "POST", headers, body: form });
  const type = response.headers.get("Content-Type") || "";
  const body = type.startsWith("application/json") ? await response.json() : (await response.text()).trim();
  return { status: response.status, body };
}

/** The live stream: `bridge`, `state` (decoded packets) and `watch` (other lines) events. */
export function openEvents(handlers) {
  const events = new EventSource("/api/events?token=" + encodeURIComponent(token));
  for (const [name, handler] of Object.entries(handlers)) {
    events.addEventListener(name, (event) => handler(event.data));
  }
  return events;
}
