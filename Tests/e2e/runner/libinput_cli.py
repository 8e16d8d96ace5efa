"""The `libinput` command-line tool, as the scenarios read it."""
from __future__ import annotations

import subprocess


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
