// The editor page: loads what settings may say and the config, then follows the bridge live.

import { getJSON, openEvents } from "./api.js";
import { Bindings } from "./bindings.js";
import { configRead } from "./config-reload.js";
import { ControllerView } from "./controller-view.js";
import { gyroLive } from "./gyro-live.js";
import { Preview } from "./preview.js";
import { makeControlsTappable } from "./tap-to-edit.js";
import { offerPresets, ProfilePanel } from "./presets.js";

const status = document.getElementById("bridge-status");
let bindings = null;
let profilePanel = null;
/** The profile the bridge last said it runs: a first run's editor starts after it was said. */
let live = null;
const view = new ControllerView((button) => bindings?.pressed(button));
const preview = new Preview();
makeControlsTappable((button) => bindings?.chose(button));

async function load() {
  try {
    const [vocabulary, config] = await Promise.all([getJSON("/api/vocabulary"), getJSON("/api/config")]);
    await start(vocabulary, config);
  } catch (error) {
    document.getElementById("save-status").textContent = "The mapping cannot be edited: " + error.message;
    offerPresets(async (config) => start(await getJSON("/api/vocabulary"), config));
  }
}

/** The editor and the profiles panel for `config`. */
async function start(vocabulary, config) {
  bindings = new Bindings(vocabulary, config);
  profilePanel = new ProfilePanel(bindings, (await getJSON("/api/presets")).presets);
  if (live) liveProfile(live);
}

function liveProfile(name) {
  live = name;
  bindings?.liveProfile(name);
  profilePanel?.liveProfile(name);
}

/** A `watch` line: `ADDRESS SECONDS EVENT`; the bridge's own lines have `bridge` for the address. */
function watchLine(line) {
  const [address, , ...rest] = line.split(" ");
  const event = rest.join(" ");
  if (address === "bridge") {
    configRead(event);
    return;
  }
  gyroLive.line(event);
  if (event.startsWith("event ")) {
    preview.event(event.slice(6));
    gyroLive.event(event.slice(6));
  } else if (event.startsWith("profile ")) liveProfile(event.slice(8));
  else view.line(address, event);
}

load().then(() => {
  openEvents({
    bridge: (data) => {
      status.textContent =
        data === "none" ? "No bridge is running: start it with 'daydream-bridge run' (this page then follows it)." : "Following the bridge at " + data + ".";
      document.body.dataset.bridge = data === "none" ? "none" : "live";
    },
    state: (data) => {
      const message = JSON.parse(data);
      view.state(message);
      gyroLive.state(message);
    },
    watch: watchLine,
  });
});
