"""The real consumers of the bridge's devices, as the scenarios run them: the
SDL 2 probe (clients/sdl_probe.c, compiled by run.sh against Debian's
libsdl2-dev), libinput's `libinput` tool and the joystick package's `jstest`;
and what each calls the bridge's event codes."""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sysconfig
import time

from emulator_client import RigError
from processes import wait_or_kill

# SDL 2.26's names for what the configs emit. Game controller buttons follow
# the bridge's mapping line (SDL's automatic mapping); keys are SDL scancode
# names (src/events/scancodes_linux.h, SDL_GetScancodeName); mouse buttons are
# SDL_BUTTON_* numbers (src/core/linux/SDL_evdev.c, EVDEV_MouseButtons).
SDL_CONTROLLER_BUTTONS = {
    "BTN_SOUTH": "a", "BTN_EAST": "b", "BTN_NORTH": "x", "BTN_WEST": "y",
    "BTN_TL": "leftshoulder", "BTN_TR": "rightshoulder", "BTN_SELECT": "back", "BTN_START": "start",
    "BTN_MODE": "guide", "BTN_THUMBL": "leftstick", "BTN_THUMBR": "rightstick",
    "BTN_DPAD_UP": "dpup", "BTN_DPAD_DOWN": "dpdown", "BTN_DPAD_LEFT": "dpleft", "BTN_DPAD_RIGHT": "dpright",
}
# Buttons SDL maps to trigger axes (0 up, 32767 down).
SDL_CONTROLLER_TRIGGERS = {"BTN_TL2": "lefttrigger", "BTN_TR2": "righttrigger"}
SDL_SCANCODES = {
    "KEY_ESC": "Escape", "KEY_W": "W", "KEY_LEFTCTRL": "Left Ctrl", "KEY_C": "C", "KEY_B": "B", "KEY_F5": "F5",
    "KEY_PAGEUP": "PageUp", "KEY_PAGEDOWN": "PageDown", "KEY_LEFT": "Left", "KEY_RIGHT": "Right",
    "KEY_MUTE": "Mute", "KEY_VOLUMEDOWN": "VolumeDown", "KEY_VOLUMEUP": "VolumeUp", "KEY_LEFTMETA": "Left GUI",
    "KEY_NEXTSONG": "AudioNext", "KEY_PLAYPAUSE": "AudioPlay", "KEY_PREVIOUSSONG": "AudioPrev",
    "KEY_STOPCD": "AudioStop",
}
SDL_MOUSE_BUTTONS = {
    "BTN_LEFT": 1, "BTN_MIDDLE": 2, "BTN_RIGHT": 3, "BTN_SIDE": 4, "BTN_EXTRA": 5, "BTN_FORWARD": 6, "BTN_BACK": 7,
}


def sdl_input(code: str) -> tuple[str, object]:
    """(event kind, SDL's name) for an event code: how the probe reports it."""
    if code in SDL_CONTROLLER_BUTTONS:
        return "button", SDL_CONTROLLER_BUTTONS[code]
    if code in SDL_CONTROLLER_TRIGGERS:
        return "axis", SDL_CONTROLLER_TRIGGERS[code]
    if code in SDL_SCANCODES:
        return "key", SDL_SCANCODES[code]
    if code in SDL_MOUSE_BUTTONS:
        return "mouse_button", SDL_MOUSE_BUTTONS[code]
    raise AssertionError(f"no SDL name known for {code}: add it to runner/clients.py (from SDL 2.26's tables)")


def sdl_probe(rig) -> str:
    path = os.path.join(rig.repo, ".build", "e2e-clients", "sdl_probe")
    if not os.access(path, os.X_OK):
        raise RigError(f"no SDL probe at {path} (run.sh compiles it against libsdl2-dev)")
    return path


def sdl_environment(udev: bool, library: str | None = None) -> dict:
    """The scenario's environment without SDL's variables; with `library`, SDL_DYNAMIC_API
    runs the SDL 2 program on that SDL library instead of the one it was linked with."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    if not udev:
        env["SDL_JOYSTICK_DISABLE_UDEV"] = "1"
    if library:
        env["SDL_DYNAMIC_API"] = library
    return env


def bundled_sdl(package_libs: str, pattern: str) -> str:
    """The SDL 2 library a wheel in the rig's venv brings: `pattern` under its `package_libs`
    folder of site-packages."""
    site = sysconfig.get_paths()["purelib"]
    found = sorted(glob.glob(os.path.join(site, package_libs, pattern)))
    if not found:
        raise RigError(f"no {pattern} under {os.path.join(site, package_libs)} (Tests/e2e/setup.sh installs it)")
    return found[0]


def pygame_ce_sdl() -> str:
    """SDL 2.32 as pygame-ce's wheel bundles it: built with udev, so with SDL's hidraw HIDAPI backend."""
    return bundled_sdl("pygame_ce.libs", "libSDL2-2*.so*")


def pysdl2_dll_sdl() -> str:
    """SDL 2.32 as pysdl2-dll's wheel bundles it: built without udev, so with no HIDAPI backend on Linux."""
    return bundled_sdl(os.path.join("sdl2dll", "dll"), "libSDL2-2.0.so")


def sdl_devices(rig, udev: bool = True, label: str = "", library: str | None = None) -> tuple[dict, list[dict]]:
    """What `sdl_probe devices` prints: SDL's version and count, then one object per joystick.
    `library`: the SDL 2 library to run it on (SDL_DYNAMIC_API), rather than Debian's."""
    result = subprocess.run([sdl_probe(rig), "devices"], capture_output=True, text=True, timeout=60,
                            env=sdl_environment(udev, library), stdin=subprocess.DEVNULL)
    on = f" on {library}" if library else ""
    with open(os.path.join(rig.logs, "sdl-probe.log"), "a") as log:
        log.write(f"--- sdl_probe devices ({'udev' if udev else 'SDL_JOYSTICK_DISABLE_UDEV=1'}){on} {label}"
                  f" -> {result.returncode}\n{result.stdout}{result.stderr}")
    assert result.returncode == 0, f"sdl_probe devices{on} exited {result.returncode}: {result.stderr}"
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return lines[0], lines[1:]


class SdlEvents:
    """`sdl_probe events` running while a scenario plays: started once SDL has
    opened the controller (or at once with `video`), read after `stop`."""

    def __init__(self, rig, video: bool = False, udev: bool = True, name: str = "sdl-events") -> None:
        self.path = os.path.join(rig.logs, f"{name}.jsonl")
        self.errors = open(os.path.join(rig.logs, f"{name}.stderr.log"), "w")
        self.output = open(self.path, "w")
        argv = [sdl_probe(rig), "events"] + (["--video"] if video else [])
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=self.output, stderr=self.errors,
                                        env=sdl_environment(udev))
        deadline = time.monotonic() + 30
        while not any('"ready"' in line for line in self._lines()):
            if self.process.poll() is not None:
                raise AssertionError(f"sdl_probe events exited {self.process.returncode} before it was ready")
            if time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"sdl_probe events opened no game controller in 30 s: {self._lines()}")
            time.sleep(0.1)

    def _lines(self) -> list[str]:
        with open(self.path, encoding="utf-8", errors="replace") as file:
            return file.read().splitlines()

    def events(self) -> list[dict]:
        return [json.loads(line) for line in self._lines() if line.startswith('{"event"')]

    def stop(self) -> list[dict]:
        if self.process.poll() is None:
            self.process.stdin.close()
            wait_or_kill(self.process)
        self.output.close()
        self.errors.close()
        return self.events()


def mapping_bindings(line: str) -> dict[str, str]:
    """The element:input pairs of an SDL mapping line (GUID, name and platform left out)."""
    fields = [f for f in line.strip().split(",")[2:] if f]
    return dict(f.split(":", 1) for f in fields if not f.startswith(("platform:", "crc:", "hint:")))
