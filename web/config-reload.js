// What the bridge did each time it read the config again (after the page's save, another
// editor's, or a reload asked for), as its `watch` stream says it: `config reloaded`,
// `config unchanged`, `config kept REASONS`. The status line says it, and when.

import { tellBridge } from "./status-line.js";

/** The sentence for a `config ...` event, its `{time}` to fill; null for one this page does not know. */
export function reloadSentence(event) {
  if (event === "config reloaded") return "The bridge reloaded the config at {time}.";
  if (event === "config unchanged") return "The bridge read the config again at {time}: what it runs is unchanged.";
  if (event.startsWith("config kept ")) return "The bridge kept its config at {time}: " + event.slice(12);
  return null;
}

/** A `config ...` event heard now: said in the status line. */
export function configRead(event) {
  const sentence = reloadSentence(event);
  if (sentence) tellBridge(sentence);
}
