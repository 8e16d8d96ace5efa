// The gyro as the bridge's live stream shows it, for the gyro panel: the speed of each packet's
// turn (deg/s, in the panel's `space`, less the bias the bridge reported), the controller's own
// clock between packets (as the engine takes it), the mouse counts the bridge sent, the last
// seconds of both for the trace, and a measurement (the turn and the counts between a start and
// a stop) for the counts-per-degree helper.

import { inSpace } from "./gyro-curve.js";

/** How much of the past the trace keeps, in seconds. */
export const traceSeconds = 5;
/** A gap longer than this between packets (the stream paused) adds no turn. */
const longestStep = 0.25;
const degreesPerRadian = 180 / Math.PI;

class GyroLive {
  constructor() {
    this.space = "local";
    this.bias = { x: 0, y: 0, z: 0 };
    this.speed = 0;
    this.stillSince = performance.now();
    this.lastStamp = null;
    this.lastYaw = null;
    this.inputs = []; // [milliseconds, deg/s]
    this.outputs = []; // [milliseconds, dx, dy, "mouse" | "stick"]
    this.measuring = false;
    this.measured = { degrees: 0, counts: 0 };
  }

  /** A `state` event: `{address, packet}` with the packet as `decode` prints it. */
  state(message) {
    const packet = message.packet;
    const rate = packet.rotation_rate;
    if (!Array.isArray(rate)) return;
    const degrees = {
      x: rate[0] * degreesPerRadian - this.bias.x,
      y: rate[1] * degreesPerRadian - this.bias.y,
      z: rate[2] * degreesPerRadian - this.bias.z,
    };
    const a = packet.acceleration || [0, 0, 0];
    const { yaw, pitch } = inSpace(this.space, degrees, { x: a[0], y: a[1], z: a[2] });
    // The controller's clock, in milliseconds wrapping at 512, as the engine reads it. The stream
    // is thinned (at most 60 packets a second) and may bring an older packet after a newer one:
    // that one is skipped, and a gap is bridged by the trapezoid between the packets on either side
    // (which over a whole turn from rest to rest sums what the engine sums, packet by packet).
    const stamp = packet.time_ms;
    const step = this.lastStamp === null ? 0 : (((stamp - this.lastStamp) % 512) + 512) % 512;
    if (step > 256) return;
    const seconds = step / 1000;
    this.lastStamp = stamp;
    const previousYaw = this.lastYaw ?? yaw;
    this.lastYaw = yaw;
    this.speed = Math.hypot(yaw, pitch);
    const now = performance.now();
    if (this.speed >= 0.5) this.stillSince = now;
    // Turning right is positive, as the bridge's REL_X.
    if (this.measuring && seconds <= longestStep) this.measured.degrees += -((yaw + previousYaw) / 2) * seconds;
    this.inputs.push([now, this.speed]);
    this.forget(now);
  }

  /** An output event the bridge sent: `DEVICE TYPE CODE VALUE`. */
  event(text) {
    const [device, type, code, valueText] = text.split(" ");
    const value = Number(valueText);
    const now = performance.now();
    if (device === "mouse" && type === "EV_REL" && (code === "REL_X" || code === "REL_Y")) {
      this.outputs.push([now, code === "REL_X" ? value : 0, code === "REL_Y" ? value : 0, "mouse"]);
      if (this.measuring && code === "REL_X") this.measured.counts += value;
    } else if (device === "gamepad" && type === "EV_ABS" && ["ABS_RX", "ABS_RY", "ABS_X", "ABS_Y"].includes(code)) {
      this.outputs.push([now, code.endsWith("X") ? value / 32767 : NaN, code.endsWith("Y") ? value / 32767 : NaN, "stick"]);
    }
    this.forget(now);
  }

  /** A `watch` line's event for a controller: the bias the bridge takes off the gyro (deg/s). */
  line(event) {
    if (!event.startsWith("gyro-bias ")) return;
    const [x, y, z] = event.slice(10).split(" ").map(Number);
    if ([x, y, z].every(Number.isFinite)) this.bias = { x, y, z };
  }

  /** Seconds since the controller last turned faster than 0.5 deg/s. */
  stillFor() {
    return (performance.now() - this.stillSince) / 1000;
  }

  forget(now) {
    const oldest = now - traceSeconds * 1000;
    while (this.inputs.length && this.inputs[0][0] < oldest) this.inputs.shift();
    while (this.outputs.length && this.outputs[0][0] < oldest) this.outputs.shift();
  }

  /** Starts measuring a turn: its degrees (the gyro's) and the mouse counts sent, from zero. */
  start() {
    this.measured = { degrees: 0, counts: 0 };
    this.measuring = true;
  }

  stop() {
    this.measuring = false;
  }
}

/** The page's one follower of the gyro. */
export const gyroLive = new GyroLive();
