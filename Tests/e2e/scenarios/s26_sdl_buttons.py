"""Every button of every shipped profile, as a game built on SDL 2 sees it:
SDL must see each press go down and up, a 100 ms press must be down for at
least 100 ms (the bridge's tap-time), and a held button's action must start
while it is held (a tap/hold binding's not before its hold time). SDL reads
the gamepad as a game controller, and the keyboard and mouse through its
evdev video driver.

Durations and start times are judged by the kernel's timestamps of the
bridge's writes (read from the event nodes beside SDL), against the times the
emulator wrote each packet to /dev/vhci, both on the guest's CLOCK_MONOTONIC:
the bridge's guarantees are bounds these cannot miss, however slow the VM.
SDL's own timestamps are when SDL got round to the events, so what SDL saw
is printed as figures: its order is checked, its timing is not."""
from __future__ import annotations

import glob
import os
import time
import tomllib

from evdev import ecodes

from bridge_helpers import DUALSENSE, GAMEPAD, KEYBOARD, MOUSE, ensure_paired, run_bridge_command, start_bridge, wait_streaming
from clients import SdlEvents, sdl_input
from input_devices import FrameRecorder, InputDevice, list_devices, wait_for_device
from packet import BUTTON_BITS, Packet
from processes import modprobe
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
BUTTONS = ("click", "app", "home", "volume-up", "volume-down")
# A tap: 6 packets at 60 Hz. The bridge keeps every action down for at least tap-time (120 ms)
# from its start, whether the finger was quicker or not, so a 100 ms tap must still be down in
# the kernel for SEEN_DOWN_MS; and a guest stall shorter than ~80 ms cannot hide it from the
# emulator's stream (sent_presses says so if one did).
PRESS_MS = 100
SEEN_DOWN_MS = 100
# How long a held button waits for a chord partner before its action starts
# (issue 15): the bridge's chord window. Printed beside the figures.
CHORD_WINDOW_MS = 40
# The bridge's tap-time: an action ends at most this long after the button's release.
TAP_TIME_MS = 120
# From a release until the same button, or a button that presses one of the same codes, is
# pressed again: the action's tap-time and 130 ms to spare, as when presses started 400 ms apart.
SAME_GAP_MS = TAP_TIME_MS + 130
# Between two presses' starts, whatever buttons: well past the chord window, so no two presses
# ever start within it; the presses of different buttons and codes may overlap.
STAGGER_MS = 150
# How long a button is held beyond its hold time: its action must start before the release.
HELD_BEYOND_MS = 400
SPECIAL = ("air-mouse", "next-profile", "previous-profile", "recenter", "none")


def duration_ms(text: str) -> float:
    return float(text[:-2]) if text.endswith("ms") else float(text[:-1]) * 1000


def action_codes(action) -> list[str] | None:
    """The event codes an action presses, or None for a one-shot or pointer action."""
    if action is None:
        return None
    if isinstance(action, list):
        return list(action)
    if action in SPECIAL or action.startswith("profile:"):
        return None
    return [action]


class Press:
    """One press in a profile's timeline and what SDL must show for it."""

    def __init__(self, button: str, kind: str, length_ms: float, codes: list[str],
                 hold_ms: float = 0, plain: bool = False):
        self.button, self.kind, self.length_ms = button, kind, length_ms
        self.at_ms = 0.0  # set by schedule()
        # hold_ms: a tap/hold binding's hold time (its hold action may not start before it);
        # plain: a held plain binding (it starts at once, or after the chord window).
        self.codes, self.hold_ms, self.plain = codes, hold_ms, plain

    @property
    def end_ms(self) -> float:
        return self.at_ms + self.length_ms


def chords_of(config: dict, profile: dict) -> list[set[str]]:
    """The button sets that make a chord in this profile: [bridge] next-profile's and the
    profile's own [chords]."""
    chords = [set(value.split("+")) for value in config.get("bridge", {}).values()
              if isinstance(value, str) and "+" in value and set(value.split("+")) <= set(BUTTONS)]
    chords += [set(keys.split("+")) for keys in profile.get("chords", {})]
    return chords


def must_not_overlap(first: Press, second: Press, chords: list[set[str]]) -> bool:
    """Whether `second` must wait until `first`'s action is over: the same button, a code in
    common (its edges would merge), or two members of one chord (a stalled guest could deliver
    both in one packet, making the chord instead of the two presses)."""
    return (first.button == second.button or bool(set(first.codes) & set(second.codes))
            or any({first.button, second.button} <= chord for chord in chords))


def schedule(presses: list[Press], chords: list[set[str]], begin_ms: float = 200.0) -> float:
    """Each press's start, in order: STAGGER_MS after the previous start, and SAME_GAP_MS after
    the release of any earlier press it may not overlap. Returns the last release."""
    at = begin_ms - STAGGER_MS
    for index, press in enumerate(presses):
        at += STAGGER_MS
        for earlier in presses[:index]:
            if must_not_overlap(earlier, press, chords):
                at = max(at, earlier.end_ms + SAME_GAP_MS)
        press.at_ms = at
    return max((press.end_ms for press in presses), default=begin_ms)


def plan(profile: dict, hold_default_ms: float, chords: list[set[str]] = ()) -> tuple[list[Press], str]:
    """The presses for one profile, and their timeline: every button tapped for
    PRESS_MS, then every button with a key action held, in one timeline where presses of
    different buttons overlap unless schedule() keeps them apart."""
    taps, holds = [], []
    for button in BUTTONS:
        binding = profile.get(button)
        if binding is None:
            continue
        tap = binding.get("tap") if isinstance(binding, dict) else binding
        if (codes := action_codes(tap)) is not None:
            taps.append(Press(button, "tap", PRESS_MS, codes))
    for button in BUTTONS:
        binding = profile.get(button)
        if isinstance(binding, dict):
            hold_ms = duration_ms(binding.get("hold-time", "")) if binding.get("hold-time") else hold_default_ms
            codes, plain = action_codes(binding.get("hold")), False
        else:
            hold_ms = 0
            codes, plain = action_codes(binding), True
        if codes is None:
            continue
        holds.append(Press(button, "hold", hold_ms + HELD_BEYOND_MS, codes, hold_ms, plain))
    presses = taps + holds
    last = schedule(presses, list(chords))
    lines = ["rate 60"]
    for press in presses:
        if press.kind == "tap":
            lines.append(f"at {press.at_ms:.0f}ms tap {press.button} {press.length_ms:.0f}ms")
        else:
            lines.append(f"at {press.at_ms:.0f}ms press {press.button}")
            lines.append(f"at {press.end_ms:.0f}ms release {press.button}")
    lines.append(f"at {last + 300:.0f}ms end")
    return presses, "\n".join(lines) + "\n"


def matches(event: dict, kind: str, name, down: bool) -> bool:
    if event["event"] != kind:
        return False
    if kind == "axis":  # a trigger bound to a button: 0 up, above 0 down
        return event["name"] == name and (event["value"] > 0) == down
    if kind == "mouse_button":
        return event["button"] == name and bool(event["down"]) == down
    return event["name"] == name and bool(event["down"]) == down


def sent_presses(path: str, presses: list[Press], start_ns: int) -> list[tuple[int, int]]:
    """When the controller really pressed and released each button: the /dev/vhci write
    times (CLOCK_MONOTONIC ns) of the first packet with its bit set, and the first after
    without it. The emulator's schedule slips under emulation; SDL is judged against these."""
    sends = []
    with open(path) as file:
        for line in file:
            t_ns, _, _, value = line.split()
            data = bytes.fromhex(value)
            if len(data) == 20:
                sends.append((int(t_ns), Packet.decode(data).buttons))
    result = []
    for press in presses:
        bit = BUTTON_BITS[press.button]
        scheduled = start_ns + int(press.at_ms * 1e6)
        down = next((t for t, buttons in sends if t >= scheduled - 20_000_000 and buttons & bit), None)
        assert down is not None, f"the emulator never sent {press.button} pressed (at {press.at_ms:.0f} ms)"
        up = next((t for t, buttons in sends if t > down and not buttons & bit), None)
        assert up is not None, f"the emulator never sent {press.button} released after {press.at_ms:.0f} ms"
        result.append((down, up))
    return result


def kernel_edge(frames, code: str, down: bool, after_ns: int, before_ns: int | None):
    """The kernel time of the first frame that presses (or releases) `code` in the window."""
    number = ecodes.ecodes[code]
    for _, frame in frames:
        if frame.t_ns < after_ns or (before_ns is not None and frame.t_ns >= before_ns):
            continue
        if (ecodes.EV_KEY, number, 1 if down else 0) in frame.raw:
            return frame.t_ns
    return None


def check(presses: list[Press], sent: list[tuple[int, int]], frames, events: list[dict], label: str,
          seen: dict[str, list[float]]) -> list[str]:
    """Every way the bridge's events fall short of the presses, as sentences. What
    SDL showed goes into `seen` as figures ("sdl tap": ms down; "sdl plain": ms from
    the press of a held plain binding to SDL's down), and the kernel's ("tap",
    "plain", "hold late": ms after the hold time)."""
    problems = []
    for index, press in enumerate(presses):
        begin, released = sent[index]
        pressed_ms = (released - begin) / 1e6
        for code in press.codes:
            # An edge belongs to this press until a later press of the same code: a bridge held up
            # (a loaded machine) may act on this press after the next button's was sent.
            end = next((sent[later][0] for later in range(index + 1, len(presses))
                        if code in presses[later].codes), None)
            kind, name = sdl_input(code)
            what = f"{label}: {press.button} {press.kind} ({code}, SDL {kind} {name})"
            down_ns = kernel_edge(frames, code, True, begin, end)
            if down_ns is None:
                problems.append(f"{what}: the bridge never pressed it")
                continue
            up_ns = kernel_edge(frames, code, False, down_ns, None)
            if up_ns is None:
                problems.append(f"{what}: the bridge never released it")
                continue
            sdl_down = next((e for e in events if matches(e, kind, name, True) and e["mono_ns"] >= begin
                             and (end is None or e["mono_ns"] < end)), None)
            if sdl_down is None:
                problems.append(f"{what}: never down in SDL")
                continue
            sdl_up = next((e for e in events if matches(e, kind, name, False) and e["mono_ns"] >= sdl_down["mono_ns"]
                           and e["t_ms"] >= sdl_down["t_ms"]), None)
            if sdl_up is None:
                problems.append(f"{what}: never up again in SDL")
                continue
            held = (up_ns - down_ns) / 1e6
            after = (down_ns - begin) / 1e6
            if press.kind == "tap":
                # 100 ms for a 100 ms press; less by what the emulator's press fell short of it.
                wanted = SEEN_DOWN_MS - max(0.0, PRESS_MS - pressed_ms)
                seen["tap"].append(held)
                seen["sdl tap"].append(sdl_up["t_ms"] - sdl_down["t_ms"])
                if held < wanted:
                    problems.append(f"{what}: pressed {pressed_ms:.0f} ms, down for {held:.0f} ms (< {wanted:.0f}); "
                                    f"the bridge pressed it {after:.0f} ms after the press and released it "
                                    f"{(up_ns - released) / 1e6:.0f} ms after the release")
                continue
            if down_ns >= released:
                problems.append(f"{what}: down only {after:.0f} ms after the press, when it had been "
                                f"released (after {pressed_ms:.0f} ms)")
            if press.plain:
                seen["plain"].append(after)
                seen["sdl plain"].append((sdl_down["mono_ns"] - begin) / 1e6)
            else:
                # The bridge starts its hold timer when the press arrives, after it was sent.
                if after < press.hold_ms:
                    problems.append(f"{what}: down {after:.0f} ms after the press, before its hold time "
                                    f"({press.hold_ms:.0f} ms)")
                seen["hold late"].append(after - press.hold_ms)
    return problems


def has_gamepad(config: dict) -> bool:
    for profile in config.get("profile", {}).values():
        for button in BUTTONS:
            binding = profile.get(button)
            actions = [binding.get("tap"), binding.get("hold")] if isinstance(binding, dict) else [binding]
            for action in actions:
                for code in action_codes(action) or []:
                    kind, _ = sdl_input(code)
                    if kind in ("button", "axis"):
                        return True
        if profile.get("touchpad", {}).get("mode") in ("stick", "dpad") or "tilt" in profile:
            return True
    return False


@scenario("SDL: every button of every shipped profile goes down and up in SDL, a 100 ms press "
          "down for 100 ms, a held one acting while held", needs=("run", "profile"), udev=True)
def sdl_every_button(rig):
    """For each config/*.toml and each of its profiles (switched with `daydream-bridge profile`):
    SDL must see each button's actions go down and up; by the kernel's clock, a tap action
    (plain binding or `tap`) must be down for at least 100 ms of a 100 ms press, a held plain
    binding's action must start before the release, and a held tap/hold binding's hold action
    between its hold time and the release. A profile's presses make one timeline in which those
    of different buttons overlap, each starting 150 ms after the one before (well past the chord
    window); a button, a code or a chord's members are pressed again only once the action before
    is over. Fails listing every shortfall."""
    problems: list[str] = []
    checked = 0
    seen: dict[str, list[float]] = {"tap": [], "plain": [], "hold late": [], "sdl tap": [], "sdl plain": []}
    for path in sorted(glob.glob(os.path.join(rig.repo, "config", "*.toml"))):
        with open(path, "rb") as file:
            config = tomllib.load(file)
        with open(path, encoding="utf-8") as file:
            text = file.read()
        name = os.path.basename(path)
        for process in rig.processes:
            process.stop()
        rig.processes.clear()
        ensure_paired(rig, NAME, ADDRESS)
        dualsense = config.get("gamepad", {}).get("identity") == "dualsense"
        if dualsense:  # as s29: the pad is the kernel's hid-playstation node over /dev/uhid
            modprobe("uhid")
            modprobe("hid-playstation")
        mark = rig.emulator.mark()
        start_bridge(rig, text)
        wait_streaming(rig, NAME, since=mark)
        # The bridge's devices are made for all of a config's profiles at once: one set per file
        # (with identity = "dualsense" the pad is hid-playstation's node, made at the first packet).
        if dualsense:
            wait_for_device(DUALSENSE).close()
        recorder = FrameRecorder([InputDevice(path) for path, device_name in sorted(list_devices().items())
                                  if device_name in (GAMEPAD, MOUSE, KEYBOARD, DUALSENSE)])
        probe = SdlEvents(rig, video=True, name=f"sdl-buttons-{name[:-5]}")
        try:
            if has_gamepad(config):
                deadline = time.monotonic() + 30
                while not any(e["event"] == "added" for e in probe.events()):
                    assert time.monotonic() < deadline, f"{name}: SDL opened no game controller in 30 s"
                    time.sleep(0.1)
            hold_default = duration_ms(config.get("bridge", {}).get("hold-time", "1s"))
            for profile_name, profile in config.get("profile", {}).items():
                switched = run_bridge_command(rig, "profile", profile_name)
                assert switched.returncode == 0, \
                    f"{name}: daydream-bridge profile {profile_name} exited {switched.returncode}: {switched.stderr}"
                presses, timeline = plan(profile, hold_default, chords_of(config, profile))
                if not presses:
                    continue
                log_path = os.path.join(rig.logs, f"vhci-buttons-{name[:-5]}-{profile_name}.txt")
                rig.emulator.request("notifications", path=log_path, clear=True)
                mark = rig.emulator.mark()
                length = rig.play(NAME, timeline)
                start_ns = rig.emulator.wait_event("play_started", NAME, since=mark, timeout=5)["t_ns"]
                rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=length + 30)
                rig.emulator.request("notifications", path=log_path, clear=True)
                sent = sent_presses(log_path, presses, start_ns)
                # Until the last release has reached the kernel and SDL (or 10 s).
                last_index = max(range(len(presses)), key=lambda index: sent[index][1])
                last, (last_down, _) = presses[last_index], sent[last_index]
                kind, sdl_name = sdl_input(last.codes[-1])
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline and not (
                        kernel_edge(recorder.frames(), last.codes[-1], False, last_down, None) is not None
                        and any(matches(e, kind, sdl_name, False) and e["mono_ns"] >= last_down
                                for e in probe.events())):
                    time.sleep(0.05)
                problems += check(presses, sent, recorder.frames(), probe.events(),
                                  f"{name} [profile.{profile_name}]", seen)
                checked += sum(len(p.codes) for p in presses)
        finally:
            probe.stop()
            recorder.stop()
    rig.figure(f"SDL every-button check: {checked} presses, {len(problems)} short")

    def span(key: str) -> str:
        return f"{min(seen[key]):.0f} to {max(seen[key]):.0f} ms" if seen[key] else "none"
    rig.figure(f"kernel: taps of {PRESS_MS} ms down {span('tap')}; held plain bindings down {span('plain')} after "
               f"the press (chord window {CHORD_WINDOW_MS} ms); hold actions {span('hold late')} after their hold time")
    rig.figure(f"SDL: taps of {PRESS_MS} ms down {span('sdl tap')}; held plain bindings down {span('sdl plain')} "
               f"after the press")
    assert not problems, f"{len(problems)} of {checked} presses fall short in SDL:\n" + "\n".join(problems)
