// A flat TOML inline table (`{ sens = 1.0, off = "touch" }`) as its entries, each value's text
// exactly as written, so a form that changes one key leaves the others as the file has them.

/**
 * `[key, value text]` pairs in the file's order, or null when `text` is not a flat inline table
 * this can split (nested tables and arrays are kept whole as values).
 */
export function entries(text) {
  const inner = /^\s*\{([\s\S]*)\}\s*$/.exec(text || "");
  if (!inner) return null;
  const parts = [];
  let depth = 0;
  let quote = null;
  let start = 0;
  const body = inner[1];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (quote || depth !== 0) return null;
  parts.push(body.slice(start));
  const pairs = [];
  for (const part of parts) {
    if (!part.trim()) continue;
    const match = /^\s*([A-Za-z0-9_-]+|"[^"]*")\s*=\s*([\s\S]*?)\s*$/.exec(part);
    if (!match) return null;
    pairs.push([match[1].replace(/^"|"$/g, ""), match[2]]);
  }
  return pairs;
}
