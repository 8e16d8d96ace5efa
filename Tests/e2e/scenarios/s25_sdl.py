"""SDL 2 (Debian's libsdl2, through clients/sdl_probe.c) as a game sees the
bridge's devices: with udev and with SDL's own device test
(SDL_JOYSTICK_DISABLE_UDEV=1, as in Flatpak or Steam's runtime)."""
from __future__ import annotations

import os

from bridge_helpers import GAMEPAD, expected_gamepad_frames, run_bridge_command, start_streaming
from clients import SdlEvents, mapping_bindings, sdl_devices
from input_devices import wait_for_device
from rig import scenario
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"

# What SDL 2.26 reports for each identity. GUID: bus, SDL's CRC-16 of the name
# SDL gives the device (bytes 2-3), vendor, product, version, little-endian;
# for 045e:028e SDL uses its own name "Xbox 360 Controller", and its database's
# mapping names the controller "X360 Controller".
IDENTITIES = {
    "default": {
        "device": GAMEPAD, "name": GAMEPAD, "controller_name": GAMEPAD,
        "guid": "060009be7dda00000100000001000000", "ids": (0xDA7D, 0x0001, 0x0001), "counts": (2, 6, 0),
    },
    "xbox360": {
        "device": "Microsoft X-Box 360 pad", "name": "Xbox 360 Controller", "controller_name": "X360 Controller",
        "guid": "030003f05e0400008e02000014010000", "ids": (0x045E, 0x028E, 0x0114), "counts": (6, 11, 1),
    },
}


def default_config(rig, identity: str = "default") -> str:
    with open(os.path.join(rig.repo, "config", "default.toml"), encoding="utf-8") as file:
        text = file.read()
    assert 'identity = "default"' in text, "config/default.toml no longer sets identity = \"default\""
    return text.replace('identity = "default"', f'identity = "{identity}"')


def stop_bridge(rig) -> None:
    for process in rig.processes:
        process.stop()
    rig.processes.clear()


def bridge_with(rig, config: str, device_name: str):
    """The bridge running `config` with the controller streaming; returns its gamepad's event node."""
    start_streaming(rig, NAME, ADDRESS, config)
    pad = wait_for_device(lambda n: n == device_name, timeout=30)
    path = pad.path
    pad.close()
    return path


def expected_bindings(rig) -> dict[str, str]:
    result = run_bridge_command(rig, "mapping")
    assert result.returncode == 0, f"daydream-bridge mapping exited {result.returncode}: {result.stderr}"
    return mapping_bindings(result.stdout)


def check_one_controller(rig, expected: dict, pad_path: str, bindings: dict[str, str], label: str) -> None:
    for udev in (True, False):
        how = "with udev" if udev else "without udev (SDL_JOYSTICK_DISABLE_UDEV=1)"
        header, joysticks = sdl_devices(rig, udev=udev, label=label)
        assert header["sdl"].startswith("2."), header
        assert len(joysticks) == 1, \
            f"{label}, {how}: SDL sees {len(joysticks)} joysticks, not the gamepad alone: {joysticks}"
        pad = joysticks[0]
        seen = {
            "path": pad["path"], "name": pad["name"], "guid": pad["guid"],
            "ids": (pad["vendor"], pad["product"], pad["version"]),
            "counts": (pad.get("axes"), pad.get("buttons"), pad.get("hats")),
            "gamecontroller": pad["gamecontroller"], "controller_name": pad.get("controller_name"),
            "bindings": pad.get("bindings"),
        }
        wanted = {
            "path": pad_path, "name": expected["name"], "guid": expected["guid"], "ids": expected["ids"],
            "counts": expected["counts"], "gamecontroller": True, "controller_name": expected["controller_name"],
            "bindings": bindings,
        }
        wrong = {key: (seen[key], wanted[key]) for key in wanted if seen[key] != wanted[key]}
        assert not wrong, f"{label}, {how}: SDL saw (seen, expected) {wrong}; SDL's mapping: {pad.get('mapping')}"
    rig.figure(f"SDL {header['sdl']}, {label}: one game controller {expected['guid']} with and without udev")


@scenario("SDL: the gamepad is one game controller with its mapping, name and GUID, for each identity",
          needs=("run", "mapping"), udev=True)
def sdl_controller(rig):
    """With udev and without, SDL finds exactly one joystick (never the mouse or the keyboard):
    the gamepad's node, with the GUID, name and counts of its identity, a game controller whose
    bindings are the line `daydream-bridge mapping` prints (SDL's own database's for xbox360)."""
    for identity, expected in IDENTITIES.items():
        pad_path = bridge_with(rig, default_config(rig, identity), expected["device"])
        check_one_controller(rig, expected, pad_path, expected_bindings(rig), f"identity {identity}")
        stop_bridge(rig)


DPAD_ONLY = """
[profile.dpad]
touchpad = { mode = "dpad", directions = 4, activation = "touch", output = "buttons" }
click = "BTN_SOUTH"
app = "BTN_EAST"
"""


@scenario("SDL: a pad without a stick in its profile is still found without udev",
          needs=("run", "mapping"), udev=True)
def sdl_dpad_only(rig):
    """A profile with the touchpad as d-pad buttons: the gamepad still has a centred left stick,
    so SDL's device test without udev (which needs ABS_X and ABS_Y) finds it, mapped."""
    pad_path = bridge_with(rig, DPAD_ONLY, GAMEPAD)
    _, joysticks = sdl_devices(rig, udev=False, label="d-pad-only profile")
    assert [j["path"] for j in joysticks] == [pad_path], \
        f"SDL's device test without udev finds {joysticks}, not the gamepad {pad_path} (it needs ABS_X and ABS_Y)"
    bindings = expected_bindings(rig)
    assert bindings == {"a": "b0", "b": "b1", "dpup": "b2", "dpdown": "b3", "dpleft": "b4", "dpright": "b5",
                        "leftx": "a0", "lefty": "a1"}, f"daydream-bridge mapping: {bindings}"
    expected = dict(IDENTITIES["default"], counts=(2, 6, 0))
    check_one_controller(rig, expected, pad_path, bindings, "d-pad-only profile")


# SDL 2.26 sends nothing for an axis until it first moves more than this from its value at
# open (then that value, and the new one): SDL_PrivateJoystickAxis's MAX_ALLOWED_JITTER.
SDL_AXIS_JITTER = 32767 // 80


def sdl_expected(rig) -> list[tuple[str, str, int]]:
    """timelines/gamepad.tl as SDL controller events: the stick's values pass unchanged
    (SDL's range is the device's, -32768...32767) after SDL's first-motion filter, the
    buttons by SDL's names."""
    names = {"ABS_X": "leftx", "ABS_Y": "lefty", "BTN_SOUTH": "a", "BTN_EAST": "b", "BTN_TR": "rightshoulder",
             "BTN_TL": "leftshoulder", "BTN_MODE": "guide", "BTN_START": "start"}
    expected = []
    moved: dict[str, int] = {}  # axis -> last value sent, once SDL sends it at all
    for frame in expected_gamepad_frames(rig):
        for event in frame:
            code, text = event.rsplit(" ", 1)
            value = int(text)
            if not code.startswith("ABS_"):
                expected.append(("button", names[code], value))
                continue
            axis = names[code]
            if axis not in moved:
                if abs(value) <= SDL_AXIS_JITTER:  # at rest (0) until it really moves
                    continue
                expected.append(("axis", axis, 0))
            elif moved[axis] == value:
                continue
            expected.append(("axis", axis, value))
            moved[axis] = value
    return expected


@scenario("SDL: every button and the stick arrive as SDL_CONTROLLER events, with and without udev",
          needs=("run",), udev=True)
def sdl_events(rig):
    """timelines/gamepad.tl through the default config: SDL_CONTROLLERAXISMOTION leftx/lefty
    with the exact stick values (full range at the rims), then SDL_CONTROLLERBUTTONDOWN/UP for
    a, b, the shoulders, guide and start, in order, and nothing else."""
    bridge_with(rig, None, GAMEPAD)
    expected = sdl_expected(rig)
    assert ("axis", "leftx", 32767) in expected and ("axis", "lefty", -32768) in expected, expected
    for udev in (True, False):
        probe = SdlEvents(rig, udev=udev, name=f"sdl-events-{'udev' if udev else 'no-udev'}")
        mark = rig.emulator.mark()
        length = rig.play(NAME, "gamepad")
        rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=length + 30)
        def seen_in(events):
            return [(e["event"], e["name"], e["value"] if e["event"] == "axis" else e["down"])
                    for e in events if e["event"] in ("axis", "button")]
        # Until SDL has shown as many events as expected (its guide button comes late), or 10 s.
        wait_until(lambda: len(seen_in(probe.events())) >= len(expected), timeout=10)
        seen = seen_in(probe.stop())
        how = "with udev" if udev else "without udev"
        assert seen == expected, f"SDL {how}: saw {seen}, expected {expected}"
