// The controllers panel's requests to `daydream-bridge ui`, which passes each one to the running
// bridge's control socket: the page, the CLI and D-Bus do the same thing.

/** How long a request answered whole waits before the page stops waiting. */
const wholeTimeoutSeconds = 10;

/** `{ bridge: true, controllers, profiles, activeProfile }` or `{ bridge: false, advice }`. */
export async function getControllers() {
  const response = await fetch("/api/controllers", { signal: AbortSignal.timeout(wholeTimeoutSeconds * 1000) });
  if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
  return response.json();
}

/** POST a change answered whole (`profile`, `recenter`); resolves to the bridge's lines, or throws its reason. */
export async function postWhole(action, fields) {
  const response = await fetch("/api/controllers/" + action, {
    method: "POST", body: new URLSearchParams(fields), signal: AbortSignal.timeout(wholeTimeoutSeconds * 1000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(text.trim() || response.statusText);
  return JSON.parse(text).lines;
}

/**
 * POST a change whose answer streams (`calibrate`, `pair`, `forget`): `onLine` hears each of the
 * bridge's lines as it comes (`ok` or `error: ...` first). Resolves when the bridge ends the
 * reply (with a reason when it broke off, else ""); `signal` aborts it (the bridge then stops
 * what only this page waited for).
 */
export async function postStreamed(action, fields, onLine, signal) {
  const response = await fetch("/api/controllers/" + action, { method: "POST", body: new URLSearchParams(fields), signal });
  if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return "";
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (event === "line") onLine(data.join("\n"));
      else if (event === "end") return data.join("\n");
    }
  }
}
