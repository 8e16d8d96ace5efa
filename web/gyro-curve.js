// The gyro's curve as the bridge computes it (Sources/Mapping/Gyro: GyroSettings, GyroAim,
// GyroSmoothing), for the gyro panel's plot and readings. Tests/browser/gyro_panel.py checks
// these functions against Tests/browser/gyro-curve.json, which the engine itself writes
// (GyroCurveFixtureTests), so the plot cannot drift from the bridge.

/** 1000 mouse counts per radian: the air mouse's scale, the default counts-per-degree. */
export const desktopCountsPerDegree = (1000 * Math.PI) / 180;

const clamp = (value, low, high) => Math.min(Math.max(value, low), high);

/** A duration as the config writes it ("125ms", "0.2s") in seconds; NaN if it is not one. */
export function durationSeconds(text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*$/.exec(String(text));
  if (!match) return NaN;
  return Number(match[1]) * { ms: 1e-3, s: 1 }[match[2]];
}

/**
 * The settings a `gyro = { ... }` table says (its keys as the file writes them, values as JSON),
 * each missing key at its default, as GyroDecoding reads them: `sens` sets both min-sens and
 * max-sens unless they are given.
 */
export function settingsFrom(table) {
  const number = (key, fallback) => (typeof table[key] === "number" ? table[key] : fallback);
  const sens = number("sens", 1);
  const smoothTime = table["smooth-time"] === undefined ? 0.125 : durationSeconds(table["smooth-time"]);
  return {
    output: typeof table.output === "string" ? table.output : "mouse",
    space: typeof table.space === "string" ? table.space : "local",
    minSens: number("min-sens", sens),
    maxSens: number("max-sens", sens),
    minThreshold: number("min-threshold", 0),
    maxThreshold: number("max-threshold", 0),
    countsPerDegree: number("counts-per-degree", desktopCountsPerDegree),
    vertical: number("vertical", 1),
    cutoffSpeed: number("cutoff-speed", 0),
    cutoffRecovery: number("cutoff-recovery", 0),
    smoothThreshold: number("smooth-threshold", 0),
    smoothTime: Number.isFinite(smoothTime) ? smoothTime : 0.125,
    stickSpeed: number("stick-speed", 360),
  };
}

/** min-sens below min-threshold, max-sens above max-threshold, linear between (GyroSettings.sensitivity). */
export function sensitivity(settings, speed) {
  const { minSens, maxSens, minThreshold, maxThreshold } = settings;
  if (!(maxThreshold > minThreshold)) return speed > minThreshold ? maxSens : minSens;
  return minSens + (maxSens - minSens) * clamp((speed - minThreshold) / (maxThreshold - minThreshold), 0, 1);
}

/** The share of a turn the cutoff lets through (GyroSettings.cutoffFactor). */
export function cutoffFactor(settings, speed) {
  const { cutoffSpeed, cutoffRecovery } = settings;
  if (cutoffRecovery > cutoffSpeed) return clamp((speed - cutoffSpeed) / (cutoffRecovery - cutoffSpeed), 0, 1);
  return cutoffSpeed > 0 && speed < cutoffSpeed ? 0 : 1;
}

/** The share of a turn that passes unsmoothed (GyroSmoothing): 0 below half the threshold, 1 above it. */
export function directShare(settings, speed) {
  const threshold = settings.smoothThreshold;
  if (!(threshold > 0) || !(settings.smoothTime > 0)) return 1;
  return clamp((speed - threshold / 2) / (threshold / 2), 0, 1);
}

/**
 * Output degrees per degree turned, for a steady turn at `speed` deg/s (GyroAim.turn): the cutoff
 * scales the turn, and the curve reads the speed the cutoff leaves. (Smoothing delays a slow turn
 * but keeps its rate once the window has filled.)
 */
export function gain(settings, speed) {
  const cutoff = cutoffFactor(settings, speed);
  return cutoff * sensitivity(settings, speed * cutoff);
}

/**
 * Yaw and pitch rates (deg/s) of `rate` (deg/s, the controller's axes) in `space`, with
 * `gravity` the accelerometer (any unit; zero when unknown), as GyroAim.inSpace.
 */
export function inSpace(space, rate, gravity) {
  const length = Math.hypot(gravity.x, gravity.y, gravity.z);
  if (space === "local" || !(length > 0)) return { yaw: rate.y, pitch: rate.x };
  const up = { x: gravity.x / length, y: gravity.y / length, z: gravity.z / length };
  const plane = Math.hypot(up.y, up.z);
  if (space === "player-turn") return plane > 0 ? { yaw: (rate.y * up.y + rate.z * up.z) / plane, pitch: rate.x } : { yaw: rate.y, pitch: rate.x };
  if (space === "player-lean") return plane > 0 ? { yaw: (rate.z * up.y - rate.y * up.z) / plane, pitch: rate.x } : { yaw: rate.y, pitch: rate.x };
  const yaw = rate.x * up.x + rate.y * up.y + rate.z * up.z;
  const right = { x: 1 - up.x * up.x, y: -up.x * up.y, z: -up.x * up.z };
  const rightLength = Math.hypot(right.x, right.y, right.z);
  if (!(rightLength > 0)) return { yaw, pitch: rate.x };
  return { yaw, pitch: (rate.x * right.x + rate.y * right.y + rate.z * right.z) / rightLength };
}
