// The status line under the form: what happened last, and when ("Saved app in 'gamepad' at
// 14:02:11"). Each message replaces the one before, so it is never left from an older step.

const $ = (id) => document.getElementById(id);

/** `when` as the 24-hour clock reads it: "14:02:11". */
export function clockTime(when) {
  return [when.getHours(), when.getMinutes(), when.getSeconds()].map((part) => String(part).padStart(2, "0")).join(":");
}

/**
 * Says `text` in the status line, its `{time}` the time now (a `<time>` element); without a
 * `{time}` the text is shown as it is (a step under way, like "Saving...").
 */
export function tell(text, when = new Date()) {
  const status = $("save-status");
  const [before, after] = text.split("{time}");
  if (after === undefined) {
    status.textContent = text;
    return;
  }
  const time = document.createElement("time");
  time.dateTime = when.toISOString();
  time.textContent = clockTime(when);
  status.replaceChildren(before, time, after);
}
