// Tapping to edit, for a phone as much as a desktop: each control of the controller picture
// selects its setting as its row in the table does, and choosing one brings the editor's form
// into view when it is off screen (on a narrow screen it sits below the picture and the table).

/** Makes each control of the controller picture a button that calls `onTap(name)`. */
export function makeControlsTappable(onTap) {
  for (const control of document.querySelectorAll("#controller .control")) {
    const name = control.dataset.button;
    control.setAttribute("role", "button");
    control.setAttribute("tabindex", "0");
    control.setAttribute("aria-label", "Edit " + name);
    control.addEventListener("click", () => onTap(name));
    control.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      onTap(name);
    });
  }
}

/** Scrolls the editor to the top of the window, unless its top is already in the upper half. */
export function bringEditorIntoView() {
  const editor = document.getElementById("editor");
  const top = editor.getBoundingClientRect().top;
  if (top >= 0 && top < window.innerHeight / 2) return;
  editor.scrollIntoView({ block: "start" });
}
