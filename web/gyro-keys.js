// What each key of `gyro = { ... }` means to a player, grouped as the panel shows them, with its
// unit, the range the config accepts (Sources/BridgeConfig/GyroDecoding.swift), a slider's
// practical range, and its default (Sources/Mapping/Gyro/GyroSettings.swift; doc/configuration.md).

import { desktopCountsPerDegree } from "./gyro-curve.js";

const speedUnit = "deg/s";

/**
 * The groups and their keys. `kind`: "range" (a slider from `min` to `max` beside a number field
 * taking `accepts`), "number" (a number field alone), "duration" (milliseconds, written "Nms"),
 * "choice" (`choices`), "boolean" (a box). `fallback`: the default, or a function of the other
 * values (min-sens and max-sens default to sens).
 */
export const groups = [
  {
    id: "curve",
    title: "Sensitivity and curve",
    hint: "How far the aim turns for each degree you turn the controller, and how that changes with speed.",
    keys: [
      { key: "sens", label: "Sensitivity", unit: "× your turn", kind: "range", min: 0, max: 10, step: 0.05, accepts: [0, 1000], fallback: 1 },
      { key: "min-sens", label: "Sensitivity when slow", unit: "×", kind: "range", min: 0, max: 10, step: 0.05, accepts: [0, 1000], fallback: (values) => values.sens ?? 1, fallbackText: "sens" },
      { key: "max-sens", label: "Sensitivity when fast", unit: "×", kind: "range", min: 0, max: 10, step: 0.05, accepts: [0, 1000], fallback: (values) => values.sens ?? 1, fallbackText: "sens" },
      { key: "min-threshold", label: "Slow up to", unit: speedUnit, kind: "range", min: 0, max: 500, step: 1, accepts: [0, 10000], fallback: 0 },
      { key: "max-threshold", label: "Fast from", unit: speedUnit, kind: "range", min: 0, max: 500, step: 1, accepts: [0, 10000], fallback: 0 },
      { key: "vertical", label: "Vertical factor", unit: "× on up and down", kind: "range", min: -3, max: 3, step: 0.05, accepts: [-100, 100], fallback: 1 },
      { key: "invert-x", label: "Invert left and right", kind: "boolean", fallback: false },
      { key: "invert-y", label: "Invert up and down", kind: "boolean", fallback: false },
    ],
  },
  {
    id: "steadiness",
    title: "Steadiness",
    hint: "Keeps a still hand's shake off the aim: slow turns are averaged (smoothing) or scaled down (tightening).",
    keys: [
      { key: "smooth-threshold", label: "Smooth turns slower than", unit: speedUnit, kind: "range", min: 0, max: 50, step: 0.5, accepts: [0, 1000], fallback: 0, zero: "off" },
      { key: "smooth-time", label: "Smoothing window", unit: "ms", kind: "duration", min: 1, max: 1000, step: 1, accepts: [1, 1000], fallback: 125 },
      { key: "cutoff-speed", label: "Ignore turns slower than", unit: speedUnit, kind: "range", min: 0, max: 50, step: 0.5, accepts: [0, 1000], fallback: 0, zero: "off" },
      { key: "cutoff-recovery", label: "Tighten turns slower than", unit: speedUnit, kind: "range", min: 0, max: 50, step: 0.5, accepts: [0, 1000], fallback: 0, zero: "off" },
    ],
  },
  {
    id: "switch",
    title: "When the gyro is on",
    hint: "Always, or only while a button is held, or off while it is held or the thumb rests on the pad.",
    keys: [
      { key: "auto-calibrate", label: "Measure the drift whenever the controller rests", kind: "boolean", fallback: false },
    ],
  },
  {
    id: "output",
    title: "Output",
    hint: "Where the motion goes, and how many mouse counts turn the game one degree.",
    keys: [
      { key: "output", label: "Send the motion as", kind: "choice", choices: [["mouse", "mouse motion"], ["right-stick", "the right stick"], ["left-stick", "the left stick"]], fallback: "mouse" },
      { key: "counts-per-degree", label: "Counts per degree", unit: "mouse counts", kind: "number", step: "any", accepts: [0.001, 100000], fallback: desktopCountsPerDegree, fallbackText: "17.45, the desktop's" },
      { key: "space", label: "Turns measured", kind: "choice", choices: [["local", "on the controller's own axes"], ["player-turn", "about gravity (tilt-proof)"], ["player-lean", "about gravity, leaning turns too"], ["world-turn", "about the world's axes"]], fallback: "local" },
      { key: "stick-speed", label: "Full stick at", unit: speedUnit, kind: "range", min: 1, max: 2000, step: 1, accepts: [1, 10000], fallback: 360, stick: true },
      { key: "undeadzone-inner", label: "Smallest stick deflection", unit: "0 to 1", kind: "range", min: 0, max: 1, step: 0.01, accepts: [0, 1], fallback: 0, stick: true },
      { key: "undeadzone-outer", label: "Largest stick deflection", unit: "0 to 1", kind: "range", min: 0, max: 1, step: 0.01, accepts: [0, 1], fallback: 1, stick: true },
      { key: "power", label: "Stick curve (power)", unit: "", kind: "range", min: 0.1, max: 10, step: 0.1, accepts: [0.1, 10], fallback: 1, stick: true },
    ],
  },
];

/** The switch's keys: at most one of them is written. */
export const switchKeys = ["on", "off", "toggle"];

/**
 * Steadiness presets: the smoothing and tightening keys each sets (a key at its default is not
 * written). Documented in doc/configuration.md ("The gyro panel").
 */
export const steadinessPresets = {
  off: { "smooth-threshold": 0, "smooth-time": 125, "cutoff-speed": 0, "cutoff-recovery": 0 },
  light: { "smooth-threshold": 3, "smooth-time": 125, "cutoff-speed": 0, "cutoff-recovery": 2 },
  medium: { "smooth-threshold": 6, "smooth-time": 125, "cutoff-speed": 0, "cutoff-recovery": 4 },
  heavy: { "smooth-threshold": 12, "smooth-time": 250, "cutoff-speed": 0, "cutoff-recovery": 8 },
};

/** Every key the panel has a field for, by name. */
export const byKey = new Map(groups.flatMap((group) => group.keys).map((entry) => [entry.key, entry]));
