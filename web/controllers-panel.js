// The controllers panel: each controller the running bridge knows, with its family, name,
// address, link, battery, firmware and profile; switch its profile now, recentre, calibrate
// (with the bridge's progress), forget; find and pair a new one. The list is asked for again
// every few seconds and after each change; every change goes to the bridge's command set.

import { getControllers, postStreamed, postWhole } from "./controllers-api.js";

const refreshSeconds = 2;
const note = document.getElementById("controllers-note");
const list = document.getElementById("controller-list");
const activity = document.getElementById("controllers-activity");
const pairButton = document.getElementById("pair-new");
const stopButton = document.getElementById("pair-stop");
const pairLog = document.getElementById("pair-log");
const candidates = document.getElementById("pair-candidates");
let profiles = [];
let refreshTimer = null;
let pairing = null;

/** Says what happened last, and when. */
function say(text) {
  activity.textContent = `${text} (${new Date().toLocaleTimeString()})`;
}

function element(tag, properties = {}, children = []) {
  const made = Object.assign(document.createElement(tag), properties);
  made.append(...children);
  return made;
}

/** Asks the bridge for its controllers and shows them; again in a few seconds. */
async function refresh() {
  clearTimeout(refreshTimer);
  try {
    show(await getControllers());
  } catch (error) {
    show({ bridge: false, advice: "The page's server cannot be reached: " + error.message });
  }
  refreshTimer = setTimeout(refresh, refreshSeconds * 1000);
}

function show(answer) {
  document.getElementById("controllers-panel").dataset.bridge = answer.bridge ? "live" : "none";
  pairButton.disabled = !answer.bridge || pairing !== null;
  if (!answer.bridge) {
    note.textContent = answer.advice;
    list.replaceChildren();
    return;
  }
  profiles = answer.profiles;
  const controllers = answer.controllers;
  note.textContent = controllers.length === 0
    ? "The bridge knows no controller yet: pair one below."
    : `${controllers.length} controller${controllers.length === 1 ? "" : "s"}; new ones start in ${answer.activeProfile || "the first profile"}.`;
  const shown = new Set(controllers.map((controller) => controller.address));
  for (const card of [...list.children]) {
    if (!shown.has(card.dataset.address)) card.remove();
  }
  for (const controller of controllers) {
    let card = list.querySelector(`li[data-address="${CSS.escape(controller.address)}"]`);
    if (!card) {
      card = makeCard(controller.address);
      list.append(card);
    }
    update(card, controller);
  }
}

function makeCard(address) {
  const field = (name, label) => [element("dt", { textContent: label }), element("dd", { className: name })];
  const choiceId = "profile-choice-" + address.replaceAll(":", "");
  const card = element("li", { className: "controller-card" }, [
    element("h3", {}, [element("span", { className: "family" }), " ", element("span", { className: "controller-name" })]),
    element("p", { className: "address" }, [element("code", { textContent: address })]),
    element("dl", { className: "readings" }, [
      ...field("link", "Link"), ...field("battery", "Battery"), ...field("firmware", "Firmware"), ...field("profile", "Profile"),
    ]),
    element("label", { htmlFor: choiceId, textContent: "Switch it to" }),
    element("div", { className: "row" }, [
      element("select", { id: choiceId, className: "profile-choice" }),
      element("button", { type: "button", className: "switch-profile", textContent: "Switch now" }),
    ]),
    element("p", { className: "row" }, [
      element("button", { type: "button", className: "recenter", textContent: "Recentre" }),
      element("button", { type: "button", className: "calibrate", textContent: "Calibrate the gyro" }),
      element("button", { type: "button", className: "forget", textContent: "Forget" }),
    ]),
    element("div", { className: "calibration", hidden: true }, [
      element("progress", { max: 100, value: 0 }), " ", element("span", { className: "calibration-text" }),
    ]),
    element("div", { className: "forget-confirm", hidden: true }, [
      element("p", { textContent: `Forget ${address}? Its pairing goes; to use it again, pair it again.` }),
      element("button", { type: "button", className: "forget-yes", textContent: "Forget it" }),
      " ",
      element("button", { type: "button", className: "forget-no", textContent: "Keep it" }),
    ]),
  ]);
  card.dataset.address = address;
  card.querySelector(".switch-profile").addEventListener("click", () => switchProfile(card));
  card.querySelector(".recenter").addEventListener("click", () => recenter(card));
  card.querySelector(".calibrate").addEventListener("click", () => calibrate(card));
  card.querySelector(".forget").addEventListener("click", () => {
    card.querySelector(".forget-confirm").hidden = false;
    card.querySelector(".forget-yes").focus();
  });
  card.querySelector(".forget-no").addEventListener("click", () => {
    card.querySelector(".forget-confirm").hidden = true;
  });
  card.querySelector(".forget-yes").addEventListener("click", () => forget(card));
  return card;
}

function update(card, controller) {
  card.dataset.connected = controller.connected ? "yes" : "no";
  card.querySelector(".family").textContent = controller.family || "Daydream";
  card.querySelector(".controller-name").textContent = controller.name || "(no name)";
  card.querySelector(".link").textContent = controller.connected ? "connected" : "not connected";
  card.querySelector(".battery").textContent = controller.battery === null ? "-" : controller.battery + "%";
  card.querySelector(".firmware").textContent = controller.firmware || "-";
  card.querySelector(".profile").textContent = controller.profile;
  const select = card.querySelector(".profile-choice");
  const names = [...select.options].map((option) => option.value);
  if (names.join("\n") !== profiles.join("\n")) {
    const chosen = select.value || controller.profile;
    select.replaceChildren(...profiles.map((name) => element("option", { value: name, textContent: name })));
    select.value = profiles.includes(chosen) ? chosen : controller.profile;
  }
  for (const button of card.querySelectorAll(".recenter, .calibrate")) button.disabled = !controller.connected;
}

async function switchProfile(card) {
  const profile = card.querySelector(".profile-choice").value;
  try {
    await postWhole("profile", { address: card.dataset.address, profile });
    say(`${card.dataset.address} switched to ${profile}.`);
  } catch (error) {
    say(`Not switched: ${error.message}`);
  }
  refresh();
}

async function recenter(card) {
  try {
    await postWhole("recenter", { address: card.dataset.address });
    say(`${card.dataset.address} recentred: its tilt's zero is where it points now.`);
  } catch (error) {
    say(`Not recentred: ${error.message}`);
  }
}

async function calibrate(card) {
  const address = card.dataset.address;
  const box = card.querySelector(".calibration");
  const bar = box.querySelector("progress");
  const text = box.querySelector(".calibration-text");
  const button = card.querySelector(".calibrate");
  box.hidden = false;
  bar.value = 0;
  text.textContent = "Put the controller down and keep it still...";
  button.disabled = true;
  let outcome = "";
  try {
    const reason = await postStreamed("calibrate", { address }, (line) => {
      if (line === "ok") return;
      if (line.startsWith("error: ")) outcome = line.slice(7);
      const said = line.startsWith(address + ": ") ? line.slice(address.length + 2) : line;
      const percent = /^measuring, (\d+)%$/.exec(said);
      if (percent) bar.value = Number(percent[1]);
      else if (said.startsWith("bias ")) {
        bar.value = 100;
        outcome = `Calibrated: ${said}.`;
      } else if (said.startsWith("failed: ")) outcome = `Not calibrated: ${said.slice(8)}.`;
      text.textContent = said;
    });
    text.textContent = outcome || reason || "The bridge ended the calibration without a result.";
    say(`${address}: ${text.textContent}`);
  } catch (error) {
    text.textContent = "The calibration could not be asked for: " + error.message;
  } finally {
    button.disabled = card.dataset.connected !== "yes";
  }
}

async function forget(card) {
  const address = card.dataset.address;
  card.querySelector(".forget-confirm").hidden = true;
  let outcome = "";
  try {
    const reason = await postStreamed("forget", { address }, (line) => {
      if (line.startsWith("error: ")) outcome = `Not forgotten: ${line.slice(7)}`;
      else if (line.startsWith("forgot ")) outcome = `Forgot ${address}: pair it again to use it.`;
      else if (line.startsWith("failed: ")) outcome = `Not forgotten: ${line.slice(8)}`;
    });
    say(outcome || reason || "The bridge ended without saying whether it forgot the controller.");
  } catch (error) {
    say("Forgetting could not be asked for: " + error.message);
  }
  refresh();
}

/** Finds and pairs a controller: the one unpaired in range, or `address`. */
async function pair(address) {
  pairing = new AbortController();
  pairLog.replaceChildren();
  candidates.replaceChildren();
  pairButton.disabled = true;
  stopButton.hidden = false;
  let outcome = "";
  const log = (text) => pairLog.append(element("li", { textContent: text }));
  try {
    const reason = await postStreamed("pair", address ? { address } : {}, (line) => {
      if (line === "ok") return;
      if (line.startsWith("error: ")) {
        outcome = "Not paired: " + line.slice(7);
      } else if (line.startsWith("candidate ")) {
        const [found, ...name] = line.slice(10).split(" ");
        const choose = element("button", { type: "button", textContent: `Pair ${found} (${name.join(" ")})` });
        choose.addEventListener("click", () => pair(found));
        candidates.append(element("li", {}, [choose]));
      } else {
        log(line);
        if (line.startsWith("paired and trusted ")) outcome = `Paired ${line.slice(19)}: it connects to the bridge now.`;
        else if (line.startsWith("failed: ")) outcome = "Not paired: " + line.slice(8);
      }
    }, pairing.signal);
    say(outcome || reason || "The bridge ended the pairing without saying how it went.");
  } catch (error) {
    say(error.name === "AbortError" ? "Stopped looking for a controller." : "Pairing could not be asked for: " + error.message);
  } finally {
    pairing = null;
    stopButton.hidden = true;
    pairButton.disabled = document.getElementById("controllers-panel").dataset.bridge !== "live";
    refresh();
  }
}

pairButton.addEventListener("click", () => pair(""));
stopButton.addEventListener("click", () => pairing?.abort());
refresh();
