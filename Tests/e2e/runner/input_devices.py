"""Reading the virtual input devices back with python-evdev: kernel
timestamps on CLOCK_MONOTONIC, events grouped into SYN_REPORT frames, and
udev's classification from its database."""
from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import time

import evdev
from evdev import ecodes

EVIOCSCLOCKID = 0x400445A0  # _IOW('E', 0xa0, int)


def event_name(type_: int, code: int) -> str:
    names = {
        ecodes.EV_ABS: ecodes.ABS,
        ecodes.EV_REL: ecodes.REL,
        ecodes.EV_MSC: ecodes.MSC,
    }
    if type_ == ecodes.EV_KEY:
        name = ecodes.BTN.get(code) or ecodes.KEY.get(code)
    else:
        name = names.get(type_, {}).get(code)
    if isinstance(name, list):
        # Aliases (BTN_A/BTN_GAMEPAD/BTN_SOUTH): the gamepad spec's name.
        preferred = [n for n in name if n in ("BTN_SOUTH", "BTN_EAST", "BTN_NORTH", "BTN_WEST",
                                                 "BTN_LEFT", "BTN_RIGHT", "BTN_MIDDLE")]
        name = preferred[0] if preferred else sorted(name)[0]
    return name or f"{type_}:{code}"


class Frame:
    """The events between two SYN_REPORTs, as 'NAME value' strings.

    `resync` is set on the first whole frame after the kernel dropped events (SYN_DROPPED) for a
    reader that resynchronises: every absolute axis's value as the kernel held it at
    `resync_ns` (CLOCK_MONOTONIC), read with EVIOCGABS as libevdev does. Frames stamped up to
    then were queued before that read, so the axes' state at each of them is not known exactly;
    from the first frame after it on, the synced values plus the frames' changes are exact
    (the kernel stamps a frame when it flushes it, after it has stored the frame's values)."""

    def __init__(self, t_ns: int, events: list[tuple[int, int, int]]) -> None:
        self.t_ns = t_ns
        self.raw = events
        self.events = [f"{event_name(t, c)} {v}" for t, c, v in events]
        self.resync: dict[str, int] | None = None
        self.resync_ns = 0

    def __repr__(self) -> str:
        return "[" + ", ".join(self.events) + "]"


class InputDevice:
    def __init__(self, path: str) -> None:
        self.path = path
        # EV_MSC events are left out of frames unless a scenario asks for them (the motion
        # sensors' MSC_TIMESTAMP).
        self.keep_misc = False
        # A reader that can judge the frames it has (states, not every frame) sets this: a
        # SYN_DROPPED then resynchronises the axes (see `Frame.resync`) and is counted in
        # `drops`, where otherwise it fails the scenario.
        self.resync_on_drop = False
        self.drops = 0
        self._discarding = False
        self._resync: tuple[dict[str, int], int] | None = None
        self.device = evdev.InputDevice(path)
        fcntl.ioctl(self.device.fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
        self.pending: list[tuple[int, int, int]] = []
        self.name = self.device.name
        self.gone = False

    @property
    def event_node(self) -> str:
        return self.path

    def close(self) -> None:
        self.device.close()

    def capabilities(self) -> dict:
        return self.device.capabilities()

    def read_frames(self, duration: float, until_quiet: float | None = None) -> list[Frame]:
        """Frames read during `duration` s (or until `until_quiet` s pass with none)."""
        return read_many([self], duration, until_quiet)[self]

    def _read_available(self, frames: list[Frame]) -> bool:
        """Reads what is there into `frames`; False once the device is gone."""
        try:
            events = list(self.device.read())
        except BlockingIOError:
            return True
        except OSError as error:
            if error.errno == 19:  # ENODEV: the device was destroyed
                self.gone = True
                return False
            raise
        for event in events:
            if event.type == ecodes.EV_SYN:
                if event.code == ecodes.SYN_REPORT:
                    if self._discarding:
                        # The end of the frame the drop cut into: none of it is kept.
                        self._discarding = False
                    else:
                        frame = Frame(event.sec * 1_000_000_000 + event.usec * 1000, self.pending)
                        if self._resync is not None:
                            frame.resync, frame.resync_ns = self._resync
                            self._resync = None
                        frames.append(frame)
                    self.pending = []
                elif event.code == ecodes.SYN_DROPPED:
                    if not self.resync_on_drop:
                        raise AssertionError(f"{self.path}: SYN_DROPPED (the reader fell behind)")
                    self._resynchronise()
            elif self._discarding:
                continue
            elif event.type != ecodes.EV_MSC or self.keep_misc:
                self.pending.append((event.type, event.code, event.value))
        return True

    def _resynchronise(self) -> None:
        """After a SYN_DROPPED, as libevdev does: what is pending and the rest of the cut frame
        are discarded, and the axes are read from the kernel to mark the next whole frame."""
        self.drops += 1
        self.pending = []
        self._discarding = True
        axes = self.device.capabilities(absinfo=False).get(ecodes.EV_ABS, [])
        values = {event_name(ecodes.EV_ABS, axis): self.device.absinfo(axis).value for axis in axes}
        # Read after the axes: a frame stamped later was flushed after these reads, and every
        # change of the frames after it was made after them too.
        self._resync = (values, time.clock_gettime_ns(time.CLOCK_MONOTONIC))

    def drain(self, window: float = 0.05) -> None:
        """Discards what is queued and what arrives within `window` s. A SYN_DROPPED among
        it is no fault: what the kernel dropped would have been discarded here too. The
        kernel queues whole frames, so reading resumes at a frame's start."""
        deadline = time.monotonic() + window
        while not self.gone:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            if not select.select([self.device.fd], [], [], remaining)[0]:
                continue
            try:
                list(self.device.read())
            except BlockingIOError:
                pass
            except OSError as error:
                if error.errno != 19:  # ENODEV: the device was destroyed
                    raise
                self.gone = True
        self.pending = []

    def udev_properties(self, timeout: float = 30.0) -> dict[str, str]:
        """udev's database entry for this node, once udev has finished with
        this device (needs systemd-udevd): see `udev_properties_of`."""
        return udev_properties_of([self], timeout)[0]


def udev_settle(timeout: float = 30.0) -> None:
    """Returns once udev has processed every uevent the kernel sent before
    the call: `udevadm settle` pings the daemon, which reads all pending
    uevents before it answers (its control socket has the lowest priority),
    then waits for the event queue to empty."""
    settle = subprocess.run(["udevadm", "settle", f"--timeout={timeout:.0f}"],
                            capture_output=True, text=True, timeout=timeout + 10)
    if settle.returncode != 0:
        raise AssertionError(f"udevadm settle failed: {settle.stderr.strip()}")


def udev_properties_of(devices: list[InputDevice], timeout: float = 30.0) -> list[dict[str, str]]:
    """udev's database entries for open devices, read after one settle.
    Reading /run/udev/data/c13:N as soon as it exists is not enough: event
    node numbers are reused, and the entry of an earlier device stays until
    udev has processed its "remove". After the settle, this device's "add"
    and every earlier "remove" are done, so the entry is this device's."""
    udev_settle(timeout)
    entries = []
    for device in devices:
        rdev = os.stat(device.path).st_rdev
        data = f"/run/udev/data/c{os.major(rdev)}:{os.minor(rdev)}"
        properties = {}
        try:
            with open(data, encoding="utf-8") as file:
                for line in file:
                    if line.startswith("E:") and "=" in line:
                        key, value = line[2:].rstrip("\n").split("=", 1)
                        properties[key] = value
                    elif line.startswith("I:"):
                        properties["USEC_INITIALIZED"] = line[2:].strip()
        except FileNotFoundError:
            raise AssertionError(f"udev has no database entry {data} for {device.path} after settling") from None
        entries.append(properties)
    return entries


def read_many(devices: list[InputDevice], duration: float,
              until_quiet: float | None = None) -> dict[InputDevice, list[Frame]]:
    """Frames from several devices at once, for `duration` s at most, or
    until none of them has had a frame for `until_quiet` s."""
    frames: dict[InputDevice, list[Frame]] = {device: [] for device in devices}
    deadline = time.monotonic() + duration
    last = time.monotonic()
    live = [device for device in devices if not device.gone]
    while live:
        now = time.monotonic()
        if now >= deadline or (until_quiet is not None and now - last >= until_quiet):
            break
        wait = deadline - now if until_quiet is None else min(deadline - now, until_quiet - (now - last))
        readable, _, _ = select.select([d.device.fd for d in live], [], [], max(0.0, wait))
        for device in live:
            if device.device.fd in readable:
                before = len(frames[device])
                if not device._read_available(frames[device]):
                    live.remove(device)
                if len(frames[device]) > before:
                    last = time.monotonic()
    return frames


def wait_frames(device: InputDevice, count: int, timeout: float) -> list[Frame]:
    """Returns as soon as `count` frames arrived (or at the timeout, with fewer)."""
    frames: list[Frame] = []
    deadline = time.monotonic() + timeout
    while len(frames) < count and not device.gone:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        readable, _, _ = select.select([device.device.fd], [], [], remaining)
        if readable:
            device._read_available(frames)
    return frames


def list_devices() -> dict[str, str]:
    """event node -> device name."""
    devices = {}
    for path in evdev.list_devices():
        try:
            device = evdev.InputDevice(path)
        except OSError:
            continue
        devices[path] = device.name
        device.close()
    return devices


def wait_for_device(match, timeout: float = 20.0, exclude=()) -> InputDevice:
    """The first event node whose name satisfies `match` (a string: contains)."""
    test = (lambda name: match in name) if isinstance(match, str) else match
    deadline = time.monotonic() + timeout
    while True:
        for path, name in sorted(list_devices().items()):
            if path not in exclude and test(name):
                try:
                    return InputDevice(path)
                except FileNotFoundError:  # gone between listing and opening
                    continue
        if time.monotonic() > deadline:
            raise AssertionError(f"no input device matching {match!r} within {timeout:.0f} s; "
                                 f"present: {sorted(list_devices().values())}")
        time.sleep(0.1)


def expect_frames(actual: list[Frame], expected: list[list[str]], what: str,
                  ordered_within_frames: bool = False) -> None:
    """Exact comparison of frames, with a readable diff. Within a frame the
    order of events is the bridge's business unless `ordered_within_frames`."""
    got = [frame.events for frame in actual]
    if ordered_within_frames:
        same = got == expected
    else:
        same = [sorted(f) for f in got] == [sorted(f) for f in expected]
    if not same:
        lines = [f"{what}: events differ", "  expected:"]
        lines += [f"    {frame}" for frame in expected]
        lines += ["  got:"]
        lines += [f"    {frame}" for frame in got]
        raise AssertionError("\n".join(lines))


class FrameRecorder:
    """Reads `devices` on a thread from construction until `stop()`, so a long
    scenario step loses nothing to a full evdev buffer: every frame with the
    kernel's timestamp (CLOCK_MONOTONIC) of the write that made it."""

    def __init__(self, devices: list[InputDevice]) -> None:
        import threading
        self.devices = devices
        self._frames: dict[InputDevice, list[Frame]] = {device: [] for device in devices}
        self._lock = threading.Lock()
        self._wake_read, self._wake_write = os.pipe()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        live = list(self.devices)
        try:
            while live:
                readable, _, _ = select.select([d.device.fd for d in live] + [self._wake_read], [], [])
                if self._wake_read in readable:
                    return
                with self._lock:
                    for device in list(live):
                        if device.device.fd in readable and not device._read_available(self._frames[device]):
                            live.remove(device)
        except BaseException as error:  # reported by frames() and stop()
            self._error = error

    def frames(self) -> list[tuple[InputDevice, Frame]]:
        """Every frame so far, from all devices, in kernel time order."""
        if self._error is not None:
            raise AssertionError(f"reading the devices failed: {self._error}")
        with self._lock:
            merged = [(device, frame) for device, frames in self._frames.items() for frame in frames]
        return sorted(merged, key=lambda pair: pair[1].t_ns)

    def stop(self) -> list[tuple[InputDevice, Frame]]:
        os.write(self._wake_write, b"x")
        self._thread.join()
        os.close(self._wake_read)
        os.close(self._wake_write)
        frames = self.frames()
        for device in self.devices:
            device.close()
        return frames


def dualsense_hidraw() -> str:
    """The /dev/hidraw node of the one DualSense made through /dev/uhid."""
    nodes = [f"/dev/{name}" for name in sorted(os.listdir("/sys/class/hidraw"))
             if "/uhid/0005:054C:0CE6." in os.path.realpath(f"/sys/class/hidraw/{name}")]
    assert len(nodes) == 1, f"hidraw nodes of a uhid DualSense: {nodes}"
    return nodes[0]
