// A player's words for the config's codes and actions: "A / Cross - gamepad" for BTN_SOUTH,
// "Space - keyboard" for KEY_SPACE, "Left click - mouse" for BTN_LEFT. The common codes have
// names written here; every other code gets a readable form of its own name (KEY_KPPLUS ->
// "Keypad +", KEY_BRIGHTNESSUP -> "Brightnessup"). The code stays what is written: these are
// only what the page shows beside it.

// The gamepad's codes as the two pads the bridge can present say them: an Xbox 360 pad (xpad's
// codes) first, a DualSense (hid-playstation's) second. The kernel's drivers give the top and
// left face buttons different codes: xpad reports X as BTN_X (= BTN_NORTH) and Y as BTN_Y
// (= BTN_WEST); hid-playstation reports Triangle as BTN_NORTH and Square as BTN_WEST.
const gamepad = {
  BTN_SOUTH: "A / Cross",
  BTN_EAST: "B / Circle",
  BTN_NORTH: "X / Triangle",
  BTN_WEST: "Y / Square",
  BTN_TL: "LB / L1",
  BTN_TR: "RB / R1",
  BTN_TL2: "LT / L2 (as a button)",
  BTN_TR2: "RT / R2 (as a button)",
  BTN_SELECT: "Back / Create",
  BTN_START: "Start / Options",
  BTN_MODE: "Guide / PS",
  BTN_THUMBL: "Left stick press / L3",
  BTN_THUMBR: "Right stick press / R3",
  BTN_DPAD_UP: "D-pad up",
  BTN_DPAD_DOWN: "D-pad down",
  BTN_DPAD_LEFT: "D-pad left",
  BTN_DPAD_RIGHT: "D-pad right",
  BTN_C: "C button",
  BTN_Z: "Z button",
  ABS_X: "Left stick, left-right",
  ABS_Y: "Left stick, up-down",
  ABS_RX: "Right stick, left-right",
  ABS_RY: "Right stick, up-down",
  ABS_Z: "LT / L2 trigger",
  ABS_RZ: "RT / R2 trigger",
  ABS_HAT0X: "D-pad, left-right",
  ABS_HAT0Y: "D-pad, up-down",
};

const mouse = {
  BTN_LEFT: "Left click",
  BTN_RIGHT: "Right click",
  BTN_MIDDLE: "Middle click (wheel press)",
  BTN_SIDE: "Back (side button)",
  BTN_EXTRA: "Forward (extra button)",
  BTN_BACK: "Back button",
  BTN_FORWARD: "Forward button",
  BTN_TASK: "Task button",
  REL_X: "Move left-right",
  REL_Y: "Move up-down",
  REL_WHEEL: "Scroll wheel",
  REL_HWHEEL: "Sideways scroll",
};

const keyboard = {
  KEY_SPACE: "Space",
  KEY_ENTER: "Enter",
  KEY_ESC: "Esc",
  KEY_TAB: "Tab",
  KEY_BACKSPACE: "Backspace",
  KEY_DELETE: "Delete",
  KEY_INSERT: "Insert",
  KEY_HOME: "Home",
  KEY_END: "End",
  KEY_PAGEUP: "Page Up",
  KEY_PAGEDOWN: "Page Down",
  KEY_UP: "Up arrow",
  KEY_DOWN: "Down arrow",
  KEY_LEFT: "Left arrow",
  KEY_RIGHT: "Right arrow",
  KEY_LEFTCTRL: "Left Ctrl",
  KEY_RIGHTCTRL: "Right Ctrl",
  KEY_LEFTSHIFT: "Left Shift",
  KEY_RIGHTSHIFT: "Right Shift",
  KEY_LEFTALT: "Left Alt",
  KEY_RIGHTALT: "Right Alt (AltGr)",
  KEY_LEFTMETA: "Left Super (Windows key)",
  KEY_RIGHTMETA: "Right Super (Windows key)",
  KEY_CAPSLOCK: "Caps Lock",
  KEY_NUMLOCK: "Num Lock",
  KEY_SCROLLLOCK: "Scroll Lock",
  KEY_SYSRQ: "Print Screen",
  KEY_PAUSE: "Pause / Break",
  KEY_COMPOSE: "Menu key",
  KEY_MINUS: "- (minus)",
  KEY_EQUAL: "= (equals)",
  KEY_LEFTBRACE: "[ (left bracket)",
  KEY_RIGHTBRACE: "] (right bracket)",
  KEY_SEMICOLON: "; (semicolon)",
  KEY_APOSTROPHE: "' (apostrophe)",
  KEY_GRAVE: "` (backtick)",
  KEY_BACKSLASH: "\\ (backslash)",
  KEY_COMMA: ", (comma)",
  KEY_DOT: ". (full stop)",
  KEY_SLASH: "/ (slash)",
  KEY_PLAYPAUSE: "Play / Pause",
  KEY_PLAY: "Play",
  KEY_PAUSECD: "Pause (media)",
  KEY_STOPCD: "Stop (media)",
  KEY_NEXTSONG: "Next track",
  KEY_PREVIOUSSONG: "Previous track",
  KEY_FASTFORWARD: "Fast forward",
  KEY_REWIND: "Rewind",
  KEY_RECORD: "Record",
  KEY_EJECTCD: "Eject",
  KEY_VOLUMEUP: "Volume up",
  KEY_VOLUMEDOWN: "Volume down",
  KEY_MUTE: "Mute",
  KEY_MICMUTE: "Microphone mute",
  KEY_BRIGHTNESSUP: "Brightness up",
  KEY_BRIGHTNESSDOWN: "Brightness down",
  KEY_BACK: "Back (browser)",
  KEY_FORWARD: "Forward (browser)",
  KEY_REFRESH: "Refresh",
  KEY_HOMEPAGE: "Home page",
  KEY_SEARCH: "Search",
  KEY_MAIL: "Mail",
  KEY_CALC: "Calculator",
  KEY_POWER: "Power",
  KEY_SLEEP: "Sleep",
  KEY_SELECT: "Select (OK)",
  KEY_OK: "OK",
  KEY_EXIT: "Exit",
  KEY_INFO: "Info",
  KEY_MENU: "Menu",
  KEY_CONTEXT_MENU: "Context menu",
  KEY_ZOOMIN: "Zoom in",
  KEY_ZOOMOUT: "Zoom out",
  KEY_CHANNELUP: "Channel up",
  KEY_CHANNELDOWN: "Channel down",
};

// The keypad's signs, for "Keypad +" and the like.
const keypadSigns = {
  PLUS: "+", MINUS: "-", ASTERISK: "*", SLASH: "/", DOT: ".", ENTER: "Enter", EQUAL: "=",
  COMMA: ",", LEFTPAREN: "(", RIGHTPAREN: ")", PLUSMINUS: "+/-", JPCOMMA: ", (Japanese)",
};

// The bridge's own actions.
const actions = {
  "air-mouse": "Air mouse: point with the gyro while held",
  "next-profile": "Next profile",
  "previous-profile": "Previous profile",
  recenter: "Recentre the tilt",
  "gyro-calibrate": "Calibrate the gyro (hold it still 2 s)",
  none: "Nothing (the button is ignored)",
};

/** A code's name as words, from the code alone: letters, digits, F-keys, the keypad, the rest readable. */
export function readable(code) {
  const table = { ...gamepad, ...mouse, ...keyboard };
  if (table[code]) return table[code];
  let match = /^KEY_([A-Z0-9])$/.exec(code);
  if (match) return match[1];
  match = /^KEY_F(\d+)$/.exec(code);
  if (match) return "F" + match[1];
  match = /^KEY_KP(.+)$/.exec(code);
  if (match) return "Keypad " + (keypadSigns[match[1]] || match[1]);
  match = /^BTN_TRIGGER_HAPPY(\d+)$/.exec(code);
  if (match) return "Extra button " + match[1];
  match = /^BTN_(\d)$/.exec(code);
  if (match) return "Button " + match[1];
  const rest = code.replace(/^(KEY|BTN|ABS|REL)_/, "").replace(/_/g, " ").toLowerCase();
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** The device a code goes to when the vocabulary does not say: axes to the gamepad, motion to the mouse. */
function deviceOf(code) {
  if (code.startsWith("ABS_")) return "gamepad";
  if (code.startsWith("REL_") || code in mouse) return "mouse";
  if (code in gamepad) return "gamepad";
  return "keyboard";
}

/**
 * What `code` is to a player: `{ name, device, code }`, `device` being "gamepad", "mouse" or
 * "keyboard" for codes (from the vocabulary when given), "action" for the bridge's actions and
 * "profile switch" for `profile:NAME`.
 */
export function describe(code, device, profileSwitch = "profile:") {
  if (code in actions) return { name: actions[code], device: "action", code };
  if (code.startsWith(profileSwitch)) {
    return { name: "Switch to profile '" + code.slice(profileSwitch.length) + "'", device: "profile switch", code };
  }
  if (!/^(KEY|BTN|ABS|REL)_[A-Z0-9_]+$/.test(code)) return null;
  return { name: readable(code), device: device && device !== "action" ? device : deviceOf(code), code };
}

/** "A / Cross - gamepad". */
export function label(description) {
  return description.name + " - " + description.device;
}

/**
 * How well `description` matches the search `words` (lower case): null when a word is in
 * neither the name, the device nor the code; lower is better (a name or code that starts
 * with the first word comes first).
 */
export function rank(description, words) {
  const name = description.name.toLowerCase();
  const code = description.code.toLowerCase();
  const text = name + " " + description.device.toLowerCase() + " " + code;
  if (!words.every((word) => text.includes(word))) return null;
  const first = words[0] || "";
  if (name === first || code === first || code.replace(/^(key|btn|abs|rel)_/, "") === first) return 0;
  if (name.startsWith(first) || code.startsWith(first)) return 1;
  if (name.split(/[\s/(]+/).some((part) => part.startsWith(first))) return 2;
  return 3;
}

/** The words for a field's text: each code or action in it described, or nothing when none is known. */
export function describeText(text, devices, profileSwitch) {
  return text.split(/[\s,+]+/).filter(Boolean)
    .map((code) => describe(code.replace(/^"|"$/g, ""), devices?.get(code), profileSwitch))
    .filter(Boolean);
}

/**
 * A setting's value (as the outline gives it: a code, codes pressed together, a tap/hold
 * table) in words: "Space - keyboard", "Left Ctrl - keyboard + C - keyboard",
 * "tap: Guide / PS - gamepad; hold: Start / Options - gamepad"; "" for anything else.
 */
export function valueWords(value, devices, profileSwitch) {
  const one = (code) => {
    const description = typeof code === "string" ? describe(code, devices?.get(code), profileSwitch) : null;
    return description ? label(description) : null;
  };
  if (typeof value === "string") return one(value) || "";
  if (Array.isArray(value)) {
    const words = value.map(one);
    return words.every(Boolean) ? words.join(" + ") : "";
  }
  if (value && typeof value === "object" && ("tap" in value || "hold" in value)) {
    return ["tap", "hold"].filter((part) => part in value).map((part) => part + ": " + (one(value[part]) || value[part])).join("; ");
  }
  return "";
}
