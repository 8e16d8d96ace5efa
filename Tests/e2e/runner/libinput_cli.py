"""The `libinput` command-line tool, as the scenarios read it."""
from __future__ import annotations

import os
import re
import signal
import subprocess

from input_devices import InputDevice, udev_properties_of
from processes import wait_or_kill
from waiting import wait_until


def libinput_devices() -> dict[str, str]:
    """`libinput list-devices`: each device's name and its capabilities line."""
    result = subprocess.run(["libinput", "list-devices"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"libinput list-devices exited {result.returncode}: {result.stderr}"
    devices, name = {}, None
    for line in result.stdout.splitlines():
        if line.startswith("Device:"):
            name = line.split(":", 1)[1].strip()
            devices[name] = ""
        elif line.startswith("Capabilities:") and name is not None:
            devices[name] = line.split(":", 1)[1].strip()
    return devices


# The udev classes a desktop tells pointing devices and pads apart by.
POINTING_CLASSES = ("ID_INPUT_MOUSE", "ID_INPUT_TOUCHPAD", "ID_INPUT_TOUCHSCREEN", "ID_INPUT_TABLET", "ID_INPUT_JOYSTICK")


def check_pointer_class(device: InputDevice, name: str, udev_class: str, label: str) -> None:
    """udev gives `device` the class `udev_class` (`ID_INPUT_MOUSE`...) and none of the other
    POINTING_CLASSES; `libinput list-devices` lists `name` as a pointer."""
    properties = udev_properties_of([device])[0]
    assert properties.get(udev_class) == "1", f"udev: {properties}"
    for wrong in POINTING_CLASSES:
        if wrong != udev_class:
            assert wrong not in properties, f"the {label} is also {wrong}: {properties}"
    listed = libinput_devices()
    assert listed.get(name) == "pointer", f"libinput list-devices: {listed}"


def libinput_device_options(name: str) -> dict[str, str]:
    """`libinput list-devices`'s lines for the device called `name`, by their label
    (`Tap-to-click`, `Scroll methods`...)."""
    output = subprocess.run(["libinput", "list-devices"], capture_output=True, text=True, timeout=60).stdout
    block, inside = {}, False
    for line in output.splitlines():
        if line.startswith("Device:"):
            inside = line.split(":", 1)[1].strip() == name
        elif inside and ":" in line:
            label, value = line.split(":", 1)
            block[label.strip()] = value.strip()
    return block


class DebugEventsLog:
    """`libinput debug-events` on the udev seat, as a compositor reads it (with `options` such
    as `--enable-tap`), writing to `<logs>/<name>.log`; returns once libinput has added every
    device in `devices`."""

    def __init__(self, logs: str, name: str, devices: list[str], timeout: float = 30.0, options: tuple[str, ...] = (),
                 realtime: bool = False) -> None:
        self.path = os.path.join(logs, f"{name}.log")
        self.log = open(self.path, "w")
        # realtime: at SCHED_FIFO priority, ahead of the rig's own processes (the emulator, SDL):
        # libinput's timers run on the wall clock, so a reader held up past one reads a tap late.
        priority = ("chrt", "--fifo", "10") if realtime else ()
        self.process = subprocess.Popen([*priority, "stdbuf", "-oL", "libinput", "debug-events", "--udev", "seat0", *options],
                                        stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

        def added() -> bool:
            lines = [line for line in self.text().splitlines() if "DEVICE_ADDED" in line]
            return all(any(device in line for line in lines) for device in devices)
        ok = wait_until(lambda: added() or self.process.poll() is not None, timeout=timeout)
        if not (ok and self.process.poll() is None and added()):
            self.stop()
            raise AssertionError(f"libinput debug-events did not add {devices}: {self.text()}")

    def text(self) -> str:
        with open(self.path, encoding="utf-8", errors="replace") as file:
            return file.read()

    def stop(self) -> str:
        """Stops libinput (SIGINT, as a user would); everything it printed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            wait_or_kill(self.process)
        self.log.close()
        return self.text()


def unaccelerated_motion(text: str) -> list[tuple[float, float]]:
    """The unaccelerated (dx, dy) of every POINTER_MOTION line of `libinput debug-events`:
    for a mouse without a DPI setting, the device's own counts."""
    pattern = r"POINTER_MOTION\s+\S+\s+\S+/\s*\S+\s+\(\s*([+-]?[\d.]+)/\s*([+-]?[\d.]+)\)"
    return [(float(x), float(y)) for x, y in re.findall(pattern, text)]
