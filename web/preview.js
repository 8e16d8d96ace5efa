// What the bridge sends, as it sends it: the gamepad's sticks, the pointer, and the last
// events as lines (`keyboard EV_KEY KEY_SPACE 1`).

const logLength = 12;
const stickRadius = 45;

export class Preview {
  constructor() {
    this.log = document.getElementById("event-log");
    this.left = document.getElementById("left-stick");
    this.right = document.getElementById("right-stick");
    this.pointer = document.getElementById("pointer-dot");
    this.sticks = { ABS_X: 0, ABS_Y: 0, ABS_RX: 0, ABS_RY: 0 };
    this.at = { x: 80, y: 50 };
  }

  /** One output event: `DEVICE TYPE CODE VALUE`. */
  event(text) {
    const [device, type, code, valueText] = text.split(" ");
    const value = Number(valueText);
    if (type !== "EV_SYN" && type !== "EV_MSC") this.remember(text);
    if (device === "gamepad" && type === "EV_ABS" && code in this.sticks) {
      this.sticks[code] = value / 32767;
      this.place(this.left, this.sticks.ABS_X, this.sticks.ABS_Y);
      this.place(this.right, this.sticks.ABS_RX, this.sticks.ABS_RY);
    } else if (device === "mouse" && type === "EV_REL" && (code === "REL_X" || code === "REL_Y")) {
      // A hundredth of the counts: the box is 160 wide, a screen some 2000 counts.
      if (code === "REL_X") this.at.x = Math.max(0, Math.min(160, this.at.x + value / 12));
      else this.at.y = Math.max(0, Math.min(100, this.at.y + value / 12));
      this.showPointer();
    } else if (device === "pointer" && type === "EV_ABS" && (code === "ABS_X" || code === "ABS_Y")) {
      if (code === "ABS_X") this.at.x = (value / 32767) * 160;
      else this.at.y = (value / 32767) * 100;
      this.showPointer();
    }
  }

  place(dot, x, y) {
    dot.setAttribute("cx", (x * stickRadius).toFixed(1));
    dot.setAttribute("cy", (y * stickRadius).toFixed(1));
  }

  showPointer() {
    this.pointer.setAttribute("cx", this.at.x.toFixed(1));
    this.pointer.setAttribute("cy", this.at.y.toFixed(1));
  }

  remember(text) {
    const item = document.createElement("li");
    item.textContent = text;
    this.log.prepend(item);
    while (this.log.children.length > logLength) this.log.lastElementChild.remove();
  }
}
