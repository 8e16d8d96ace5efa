// Beside each field that holds codes or actions, what they are in a player's words ("Space -
// keyboard"); the field itself keeps the code, which is what the file says.

import { describeText, label } from "./code-names.js";

/** The words beside every picker field and touchpad option of `form`, made again from their text. */
export function refreshFieldWords(form, devices, profileSwitch) {
  for (const field of form.querySelectorAll("input.picker, #options input")) {
    let words = field.nextElementSibling;
    if (!words?.classList.contains("field-words")) {
      words = document.createElement("span");
      words.className = "field-words";
      words.id = "words-" + field.id;
      words.setAttribute("aria-live", "polite");
      field.after(words);
    }
    const descriptions = describeText(field.value, devices, profileSwitch);
    words.replaceChildren(...descriptions.flatMap((description, index) => {
      const name = document.createElement("strong");
      name.textContent = label(description);
      const code = document.createElement("code");
      code.textContent = description.code;
      return [...(index ? [" + "] : []), name, " ", code];
    }));
  }
}
