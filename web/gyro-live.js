// The gyro as the bridge's live stream shows it, for the gyro panel: the speed of each packet's
// turn (deg/s, in the panel's `space`, less the bias the bridge reported), the controller's own
// clock between packets (as the engine takes it), the mouse counts the bridge sent, the last
// seconds of both for the trace, and a measurement (the turn and the counts between a start and
// a stop) for the counts-per-degree helper.

import { inSpace } from "./gyro-curve.js";

/** How much of the past the trace keeps, in seconds. */
export const traceSeconds = 5;
const degreesPerRadian = 180 / Math.PI;

class GyroLive {
  constructor() {
    this.space = "local";
    this.bias = { x: 0, y: 0, z: 0 };
    this.speed = 0;
    this.rest = 0;
    this.lastStamp = null;
    this.lastYaw = null;
    this.lastArrival = null;
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
    // is thinned (at most 60 packets a second; on a loaded machine packets come bunched and most
    // of a bunch is dropped): a gap is bridged by the trapezoid between the packets on either
    // side (over a turn from rest to rest, with no gap, the same sum as the engine's). A step back
    // (an older packet after a newer one: a clock step of nearly 512 ms that did not take that
    // long to arrive) is skipped; a pause longer than the clock's wrap adds nothing.
    const now = performance.now();
    const stamp = packet.time_ms;
    const step = this.lastStamp === null ? 0 : (((stamp - this.lastStamp) % 512) + 512) % 512;
    const waited = this.lastArrival === null ? 0 : now - this.lastArrival;
    if (step > 256 && waited < step / 2) return;
    const seconds = waited < 500 ? step / 1000 : 0;
    this.lastStamp = stamp;
    this.lastArrival = now;
    const previousYaw = this.lastYaw ?? yaw;
    this.lastYaw = yaw;
    this.speed = Math.hypot(yaw, pitch);
    this.rest = this.speed >= 0.5 ? 0 : this.rest + seconds;
    // Turning right is positive, as the bridge's REL_X.
    if (this.measuring) this.measured.degrees += -((yaw + previousYaw) / 2) * seconds;
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

  /** Seconds (by the controller's clock) since the controller last turned faster than 0.5 deg/s. */
  stillFor() {
    return this.rest;
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
