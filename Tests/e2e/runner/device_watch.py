"""Watches for input devices and HID devices with a given name: every 10 ms it
reads /proc/bus/input/devices and the HID_NAME of every device under
/sys/bus/hid/devices (a uhid device shows there whether or not a driver
makes an input device of it).

`DeviceWatch` runs the watch as a process of its own at real-time priority
(SCHED_FIFO), so that the runner's Python, the emulator and a busy
bluetoothd do not delay its looks; it reports every sighting and, at the
end, how many looks it made and the longest gap between two.
Run directly: device_watch.py PREFIX [INTERVAL_S]; stops at EOF on stdin."""
from __future__ import annotations

import glob
import json
import os
import select
import subprocess
import sys
import time


def input_device_names() -> list[str]:
    names = []
    with open("/proc/bus/input/devices", encoding="utf-8", errors="replace") as file:
        for line in file:
            if line.startswith("N: Name="):
                names.append("input: " + line[len("N: Name="):].strip().strip('"'))
    return names


def hid_device_names() -> list[str]:
    names = []
    for uevent in glob.glob("/sys/bus/hid/devices/*/uevent"):
        try:
            with open(uevent, encoding="utf-8", errors="replace") as file:
                for line in file:
                    if line.startswith("HID_NAME="):
                        names.append("hid: " + line[len("HID_NAME="):].strip())
        except OSError:  # gone between listing and reading
            continue
    return names


def watch(prefix: str, interval: float) -> None:
    """The watching process: a line per sighting, a summary line when stdin closes."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    except (OSError, AttributeError):
        try:
            os.nice(-10)
        except OSError:
            pass  # an ordinary priority: the summary's longest gap says what it achieved
    print(json.dumps({"ready": True}), flush=True)
    looks, longest_gap, previous = 0, 0.0, None
    due = time.monotonic()
    while True:
        now = time.monotonic()
        if previous is not None:
            longest_gap = max(longest_gap, now - previous)
        previous = now
        looks += 1
        for name in input_device_names() + hid_device_names():
            if name.split(": ", 1)[1].startswith(prefix):
                print(json.dumps({"t": now, "name": name}), flush=True)
        due = max(due + interval, time.monotonic())  # a fixed rate; a late look is not made up for
        readable, _, _ = select.select([sys.stdin], [], [], max(0.0, due - time.monotonic()))
        if readable and not sys.stdin.buffer.read1(1):
            break
    print(json.dumps({"looks": looks, "longest_gap": longest_gap}), flush=True)


class DeviceWatch:
    """The watch for names starting with `prefix` (case-sensitive), in its own process from
    `start()` to `stop()`; then `seen` holds (CLOCK_MONOTONIC s, 'input: NAME' or 'hid: NAME')."""

    def __init__(self, prefix: str, interval: float = 0.010) -> None:
        self.prefix = prefix
        self.interval = interval
        self.seen: list[tuple[float, str]] = []
        self.looks = 0
        self.longest_gap = 0.0
        self._ready = False
        self._buffer = b""
        self._process: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> None:
        self._process = subprocess.Popen([sys.executable, os.path.abspath(__file__), self.prefix, str(self.interval)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while not self._ready:
            if time.monotonic() > deadline or not self._read(deadline - time.monotonic()):
                raise RuntimeError("the device watch did not start")

    def sightings(self) -> list[tuple[float, str]]:
        """What the watch has reported so far (it keeps watching)."""
        while self._read(0):
            pass
        return self.seen

    def stop(self) -> None:
        if self._process is None:
            return
        self._process.stdin.close()
        while self._read(None):
            pass
        self._process.wait(timeout=30)
        self._process = None

    def _read(self, timeout: float | None) -> bool:
        """Takes what the watch wrote, waiting up to `timeout` (None: until there is some);
        False at the end of its output or when nothing came in time."""
        descriptor = self._process.stdout.fileno()
        if not select.select([descriptor], [], [], timeout)[0]:
            return False
        chunk = os.read(descriptor, 65536)
        if not chunk:
            return False
        self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            record = json.loads(line)
            if record.get("ready"):
                self._ready = True
            elif "name" in record:
                self.seen.append((record["t"], record["name"]))
            elif "looks" in record:
                self.looks, self.longest_gap = record["looks"], record["longest_gap"]
        return True


if __name__ == "__main__":
    watch(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.010)
