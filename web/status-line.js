// The status line under the form: what happened last, and when ("Saved app in 'gamepad' at
// 14:02:11"), then what the bridge last did with the config since ("The bridge reloaded the
// config at 14:02:11."). Each of the page's messages replaces the one before; a step getting
// under way ("Saving...") also takes the bridge's away, so nothing is left from an older step.

const $ = (id) => document.getElementById(id);

/** `when` as the 24-hour clock reads it: "14:02:11". */
export function clockTime(when) {
  return [when.getHours(), when.getMinutes(), when.getSeconds()].map((part) => String(part).padStart(2, "0")).join(":");
}

/** The status line's part `name` ("page" first, then "bridge"), made when missing. */
function part(name) {
  const status = $("save-status");
  let span = status.querySelector(`[data-part="${name}"]`);
  if (!span) {
    span = document.createElement("span");
    span.dataset.part = name;
    if (name === "page") status.prepend(span);
    else status.append(span);
  }
  return span;
}

/** `text` in `span`, its `{time}` the time `when` (a `<time>` element). */
function say(span, text, when) {
  const [before, after] = text.split("{time}");
  if (after === undefined) {
    span.textContent = text;
    return;
  }
  const time = document.createElement("time");
  time.dateTime = when.toISOString();
  time.textContent = clockTime(when);
  span.replaceChildren(before, time, after);
}

/**
 * Says `text` in the status line, its `{time}` the time now (a `<time>` element); without a
 * `{time}` the text is shown as it is (a step under way, like "Saving..."), and what the bridge
 * said before goes.
 */
export function tell(text, when = new Date()) {
  say(part("page"), text, when);
  if (!text.includes("{time}")) part("bridge").textContent = "";
}

/** Says what the bridge did, `text` with its `{time}`, after the page's own last message. */
export function tellBridge(text, when = new Date()) {
  say(part("bridge"), " " + text, when);
}
