// TOML text for the values the page composes: strings quoted, numbers and booleans bare,
// flat inline tables. What the user writes by hand in the value field is sent as it is.

/** `text` as a TOML basic string. */
export function quoted(text) {
  return '"' + text.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
}

/** A key as TOML writes it: bare when it can be. */
export function key(name) {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : quoted(name);
}

/**
 * A field's text as a TOML value: true/false, numbers, and text already written as TOML (a
 * quoted string, an array, a table) as they are; anything else a string.
 */
export function scalar(text) {
  const trimmed = text.trim();
  if (trimmed === "true" || trimmed === "false") return trimmed;
  if (/^(".*"|\[.*\]|\{.*\})$/.test(trimmed)) return trimmed;
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return trimmed;
  return quoted(trimmed);
}

/** A JSON value (from the outline) as TOML. */
export function fromJSON(value) {
  if (typeof value === "string") return quoted(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "[" + value.map(fromJSON).join(", ") + "]";
  if (value && typeof value === "object") return inlineTable(Object.entries(value).map(([k, v]) => [k, fromJSON(v)]));
  return '""';
}

/** `{ a = 1, b = "x" }` from [key, TOML text] pairs. */
export function inlineTable(pairs) {
  return pairs.length === 0 ? "{}" : "{ " + pairs.map(([k, v]) => key(k) + " = " + v).join(", ") + " }";
}
