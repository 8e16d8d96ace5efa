// A small picture of what each touchpad mode does, drawn on the round pad: a stick's dot off
// the centre, the d-pad's four sectors, the trackpad's pointer trail, scrolling's arrows, the
// wheel's turn round the rim, a flick's turn, the pad passed on as a touchpad.

// Each mode's drawing inside the pad (a circle of radius 40 at the origin) and its sentence.
const pictures = {
  none: {
    words: "Nothing: the touchpad does nothing (its click keeps its binding).",
    svg: '<line x1="-28" y1="28" x2="28" y2="-28" class="faint"/>',
  },
  stick: {
    words: "Stick: the finger's place from the centre is an analog stick's tilt.",
    svg: '<line x1="-40" y1="0" x2="40" y2="0" class="faint"/><line x1="0" y1="-40" x2="0" y2="40" class="faint"/>'
      + '<line x1="0" y1="0" x2="17" y2="-17" class="stroke"/><circle cx="20" cy="-20" r="7" class="dot"/>',
  },
  dpad: {
    words: "D-pad: the pad's four sectors (or eight) are up, down, left and right.",
    svg: '<line x1="-28" y1="-28" x2="28" y2="28" class="faint"/><line x1="-28" y1="28" x2="28" y2="-28" class="faint"/>'
      + '<path d="M0 -34 l8 10 h-16 z M0 34 l8 -10 h-16 z M-34 0 l10 8 v-16 z M34 0 l-10 8 v-16 z" class="fill"/>'
      + '<path d="M0 0 L-28 -28 A40 40 0 0 1 28 -28 Z" class="lit"/>',
  },
  trackpad: {
    words: "Trackpad: sliding the finger moves the mouse pointer.",
    svg: '<path d="M-26 20 C-16 4 -6 12 4 -2 S 14 -12 16 -14" class="trail"/>'
      + '<path d="M14 -22 l0 20 l5 -5 l4 9 l4 -2 l-4 -9 l7 0 z" class="fill"/>',
  },
  scroll: {
    words: "Scroll: sliding the finger scrolls, up and down (and sideways).",
    svg: '<line x1="0" y1="-26" x2="0" y2="26" class="stroke"/>'
      + '<path d="M0 -32 l8 10 h-16 z M0 32 l8 -10 h-16 z" class="fill"/>'
      + '<line x1="-16" y1="-8" x2="-8" y2="-8" class="faint"/><line x1="-16" y1="0" x2="-8" y2="0" class="faint"/>'
      + '<line x1="-16" y1="8" x2="-8" y2="8" class="faint"/>',
  },
  wheel: {
    words: "Wheel: circling the finger round the rim turns a scroll wheel.",
    svg: '<path d="M0 -30 A30 30 0 1 1 -30 0" class="stroke"/><path d="M-30 -8 l-7 10 h14 z" class="fill"/>',
  },
  flick: {
    words: "Flick: a flick to the rim turns the view that way at once, then turning round the rim turns it on.",
    svg: '<line x1="0" y1="0" x2="0" y2="-28" class="stroke"/><circle cx="0" cy="-34" r="5" class="dot"/>'
      + '<path d="M0 -34 A34 34 0 0 1 29 -18" class="trail"/>',
  },
  touchpad: {
    words: "Touchpad: the pad is passed on as a touchpad, with its fingers and click.",
    svg: '<circle cx="-10" cy="-6" r="6" class="dot"/><circle cx="12" cy="8" r="6" class="dot"/>',
  },
};

/** The picture of `mode` with its sentence, as the markup of an `<svg>` and its caption. */
export function modePicture(mode) {
  const picture = pictures[mode] || { words: mode + ": see the configuration guide.", svg: "" };
  const svg = '<svg viewBox="-50 -50 100 100" role="img" aria-label="' + picture.words.replace(/"/g, "&quot;") + '">'
    + '<circle r="40" class="pad"/>' + picture.svg + "</svg>";
  return { svg, words: picture.words };
}

/** Shows `mode`'s picture and sentence in the element `figure`. */
export function showModePicture(figure, mode) {
  const { svg, words } = modePicture(mode);
  figure.innerHTML = svg;
  const caption = document.createElement("figcaption");
  caption.textContent = words;
  figure.append(caption);
  figure.dataset.mode = mode;
}
