// The controller drawn live from the bridge's decoded packets: pressed buttons light up (and
// count their presses in data-presses), the finger's dot on the pad, the orientation's needle
// and angles, the battery. A button going down is handed to `onPress`.

const pad = { x: 110, y: 95, radius: 68 };
const degrees = (radians) => (radians * 180) / Math.PI;

export class ControllerView {
  constructor(onPress) {
    this.onPress = onPress;
    this.pressed = new Map(); // address -> Set of button names
    this.address = null;
    this.finger = document.getElementById("finger");
    this.needle = document.getElementById("needle");
    this.orientation = document.getElementById("orientation");
    this.battery = document.getElementById("battery");
    this.name = document.getElementById("controller-name");
  }

  /** One `state` event: `{address, packet}`. */
  state(message) {
    const { address, packet } = message;
    if (this.address === null) this.follow(address);
    const before = this.pressed.get(address) || new Set();
    const now = new Set(packet.buttons);
    this.pressed.set(address, now);
    if (address !== this.address) return;
    for (const button of now) {
      if (!before.has(button)) {
        const control = document.getElementById("button-" + button);
        if (control) control.dataset.presses = String(Number(control.dataset.presses || 0) + 1);
        this.onPress(button);
      }
    }
    for (const control of document.querySelectorAll("#controller .control")) {
      control.classList.toggle("pressed", now.has(control.dataset.button));
    }
    if (packet.touch) {
      this.finger.setAttribute("cx", String(pad.x - pad.radius + packet.touch.x * 2 * pad.radius));
      this.finger.setAttribute("cy", String(pad.y - pad.radius + packet.touch.y * 2 * pad.radius));
      this.finger.setAttribute("visibility", "visible");
    } else {
      this.finger.setAttribute("visibility", "hidden");
    }
    this.showOrientation(packet.quaternion);
  }

  /** Shows `address`'s controller from now on. */
  follow(address) {
    this.address = address;
    this.name.textContent = "Controller " + address;
  }

  /** A `watch` line's event for a controller: link and battery. */
  line(address, event) {
    if (this.address === null) this.follow(address);
    if (address !== this.address) return;
    if (event.startsWith("battery ")) this.battery.textContent = event.slice(8) + " %";
    if (event === "disconnected") {
      this.name.textContent = "Controller " + address + " (disconnected)";
      for (const control of document.querySelectorAll("#controller .control")) control.classList.remove("pressed");
      this.finger.setAttribute("visibility", "hidden");
      this.pressed.set(address, new Set());
    }
    if (event === "connected") this.name.textContent = "Controller " + address;
  }

  /** Angles of the quaternion with y up (gravity is along y when the controller lies flat). */
  showOrientation(q) {
    const yaw = Math.atan2(2 * (q.w * q.y + q.x * q.z), 1 - 2 * (q.x * q.x + q.y * q.y));
    const pitch = Math.asin(Math.max(-1, Math.min(1, 2 * (q.w * q.x - q.y * q.z))));
    const roll = Math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.x * q.x + q.z * q.z));
    this.needle.setAttribute("transform", "rotate(" + degrees(yaw).toFixed(1) + ")");
    this.orientation.textContent =
      "yaw " + degrees(yaw).toFixed(0) + "°, pitch " + degrees(pitch).toFixed(0) + "°, roll " + degrees(roll).toFixed(0) + "°";
  }
}
