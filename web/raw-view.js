// The raw view: the config file as it is, line by line and numbered, folded until asked for.
// A syntax slip unfolds it at its line, marks the column, and says what is wrong in our words.

const $ = (id) => document.getElementById(id);

/** The file's text in the raw view, each line a numbered element; any slip shown before is gone. */
export function showText(text) {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const spans = lines.map((line, index) => lineElement(line, index + 1));
  // The pre's text stays the file's own: the numbers are drawn by CSS.
  const parts = [];
  spans.forEach((span, index) => parts.push(span, index < spans.length - 1 || text.endsWith("\n") ? "\n" : ""));
  $("config-text").replaceChildren(...parts);
  $("raw-slip").hidden = true;
  $("raw-slip").textContent = "";
}

function lineElement(text, number) {
  const span = document.createElement("span");
  span.className = "line";
  span.dataset.line = String(number);
  span.textContent = text;
  return span;
}

/**
 * A syntax slip at `line`, `column`: the raw view unfolded and scrolled to the line, the line
 * marked with a caret under the column, and `sentence` above it. `edited` is the line as the
 * refused save would have written it (`{ text, inserted }`: in place of the file's line, or a
 * line of its own there), so the caret points into what the player typed.
 */
export function showSlip({ line, column, sentence, edited }) {
  const pre = $("config-text");
  let target = pre.querySelector(`span.line[data-line="${line}"]`);
  if (edited) {
    const span = lineElement(edited.text, line);
    span.classList.add("unsaved");
    span.title = "Not saved: the line as the refused value would have written it";
    if (edited.inserted || !target) {
      pre.insertBefore(span, target || null);
      pre.insertBefore(document.createTextNode("\n"), target || null);
    } else {
      target.replaceWith(span);
    }
    target = span;
  }
  for (const marked of pre.querySelectorAll(".slip")) marked.classList.remove("slip");
  if (target) {
    target.classList.add("slip");
    const caret = document.createElement("span");
    caret.className = "caret";
    caret.setAttribute("aria-hidden", "true");
    caret.textContent = "\n" + " ".repeat(Math.max(0, column - 1) + 4) + "^";
    target.append(caret);
  }
  const note = $("raw-slip");
  note.textContent = "Line " + line + ", column " + column + ": " + sentence;
  note.hidden = false;
  $("file-details").open = true;
  (target || note).scrollIntoView({ block: "center" });
}

/** Shows (or folds) the TOML of the setting being edited, under the form's TOML toggle. */
export function showTOML(on) {
  $("toml-view").hidden = !on;
  $("toml-toggle").setAttribute("aria-expanded", String(on));
}

/** The TOML toggle: one click shows the value as the file writes it, another folds it. */
export function wireTOMLToggle() {
  $("toml-toggle").addEventListener("click", () => showTOML($("toml-view").hidden));
}
