"""The project's udev rules put where `make install` puts them, in the guest's real udev, and
what udev then says of a device node."""
from __future__ import annotations

import contextlib
import os
import subprocess

from input_devices import udev_settle

RULES_DIR = "/etc/udev/rules.d"
UINPUT_RULES = "60-daydream-bridge-uinput.rules"
DEVICE_RULES = "65-daydream-bridge-devices.rules"


def udevadm(*args: str) -> str:
    result = subprocess.run(["udevadm", *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"udevadm {' '.join(args)} exited {result.returncode}: {result.stderr}"
    return result.stdout + result.stderr


def group_variant(text: str) -> str:
    """The 60- file as its comment tells a box without a seat to copy it: the
    group lines (uinput's and uhid's) uncommented."""
    lines = text.splitlines()
    wanted = [i for i, line in enumerate(lines)
              if line.startswith(('#KERNEL=="uinput"', '#KERNEL=="uhid"')) and 'GROUP="input"' in line]
    assert len(wanted) == 2, f"the group lines of {UINPUT_RULES} are not where its comment says"
    for index in wanted:
        lines[index] = lines[index][1:]
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def installed_rules(files: dict[str, str]):
    """`files` written into /etc/udev/rules.d, where `make install` puts them
    for a /usr/local install (the guest's /etc is a writable overlay over the
    host's), and udev told to reload, as the install notes say; afterwards
    what was there before is put back."""
    before = {}
    for name in files:
        path = os.path.join(RULES_DIR, name)
        before[name] = open(path, encoding="utf-8").read() if os.path.exists(path) else None
    try:
        for name, text in files.items():
            with open(os.path.join(RULES_DIR, name), "w", encoding="utf-8") as file:
                file.write(text)
        udevadm("control", "--reload")
        yield
    finally:
        for name, text in before.items():
            path = os.path.join(RULES_DIR, name)
            if text is None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
            else:
                with open(path, "w", encoding="utf-8") as file:
                    file.write(text)
        subprocess.run(["udevadm", "control", "--reload"], check=False)
        subprocess.run(["udevadm", "trigger", "--action=change", "--sysname-match=uinput"], check=False)
        subprocess.run(["udevadm", "settle", "--timeout=30"], check=False)


def udev_tags(node: str, timeout: float = 30.0) -> set[str]:
    """The tags udev's database gives the character device `node` (a /dev path), read after a
    settle, so its entry is this device's (see input_devices.udev_properties_of)."""
    udev_settle(timeout)
    rdev = os.stat(node).st_rdev
    data = f"/run/udev/data/c{os.major(rdev)}:{os.minor(rdev)}"
    try:
        with open(data, encoding="utf-8") as file:
            return {line[2:].strip() for line in file if line.startswith("G:")}
    except FileNotFoundError:
        raise AssertionError(f"udev has no database entry {data} for {node} after settling") from None
