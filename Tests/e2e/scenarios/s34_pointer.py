"""The absolute pointer (pointer = { ... }): a mouse to real udev, an absolute
pointer to libinput, whose POINTER_MOTION_ABSOLUTE positions follow an
emulated sweep of the controller's orientation."""
from __future__ import annotations

import re

from evdev import ecodes

from bridge_helpers import start_streaming_to
from input_devices import FrameRecorder, InputDevice
from libinput_cli import DebugEventsLog, check_pointer_class
from rig import scenario
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
POINTER = "Daydream Controller Pointer"
FIELD_X, FIELD_Y = 40.0, 25.0
CONFIG = f"""
[profile.pointer]
pointer = {{ field-of-view-x = {FIELD_X}, field-of-view-y = {FIELD_Y} }}
home = "recenter"
"""
MAXIMUM = 32767
DEGREES_PER_COUNT = 360 / 4095  # protocol.md: 2 pi / 4095 rad per orientation count
# The sweep: recentre at rest, jump to 15 degrees left and hold, turn right to 15 degrees
# right at 30 deg/s in 20 ms steps, hold there.
START_DEG, END_DEG = -15.0, 15.0
SWEEP_FROM_MS, SWEEP_TO_MS, STEP_MS = 800, 1800, 20
HELD_UNTIL_MS = 2600


def yaw_counts(degrees: float) -> int:
    """The orientation's y count for a turn of `degrees` to the right (negative about y)."""
    return round(-degrees / DEGREES_PER_COUNT)


def emulated_degrees(ms: float) -> float:
    """The turn the emulator sends at `ms` after the timeline's start (the count's own angle)."""
    if ms < 300:
        return 0.0
    if ms < SWEEP_FROM_MS:
        return -yaw_counts(START_DEG) * DEGREES_PER_COUNT
    step = min(int((ms - SWEEP_FROM_MS) // STEP_MS), (SWEEP_TO_MS - SWEEP_FROM_MS) // STEP_MS)
    degrees = START_DEG + (END_DEG - START_DEG) * step * STEP_MS / (SWEEP_TO_MS - SWEEP_FROM_MS)
    return -yaw_counts(degrees) * DEGREES_PER_COUNT


def timeline() -> str:
    lines = ["rate 60", "at 0ms orientation 0 0 0", "at 100ms tap home 50ms",
             f"at 300ms orientation 0 {yaw_counts(START_DEG)} 0"]
    for at in range(SWEEP_FROM_MS, SWEEP_TO_MS + 1, STEP_MS):
        degrees = START_DEG + (END_DEG - START_DEG) * (at - SWEEP_FROM_MS) / (SWEEP_TO_MS - SWEEP_FROM_MS)
        lines.append(f"at {at}ms orientation 0 {yaw_counts(degrees)} 0")
    lines.append(f"at {HELD_UNTIL_MS}ms end")
    return "\n".join(lines) + "\n"


def degrees_of(value: int, field: float) -> float:
    """The turn a coordinate stands for: the centre 0, the edges half the field either side."""
    return (value / MAXIMUM - 0.5) * field


class AbsoluteMotion(DebugEventsLog):
    """`libinput debug-events` on the udev seat, as a compositor reads it, once it has added
    the pointer; its POINTER_MOTION_ABSOLUTE lines give positions in percent of the range
    (debug-events transforms to a 100 x 100 screen)."""

    PATTERN = re.compile(r"POINTER_MOTION_ABSOLUTE\s+\S+\s+([\d.]+)/\s*([\d.]+)")

    def __init__(self, rig) -> None:
        super().__init__(rig.logs, "libinput-pointer-events", [POINTER])

    def positions(self, text: str) -> list[tuple[float, float]]:
        return [(float(x), float(y)) for x, y in self.PATTERN.findall(text)]


@scenario("absolute pointer: a mouse to udev, libinput's absolute positions follow a sweep",
          needs=("run",), udev=True)
def absolute_pointer(rig):
    """pointer = { field-of-view-x = 40, field-of-view-y = 25 } makes "Daydream Controller
    Pointer" (0006:da7d:0005, ABS_X/ABS_Y 0...32767, BTN_LEFT/RIGHT/MIDDLE): udev's input_id says
    ID_INPUT_MOUSE=1 and no tablet, touchscreen or joystick; libinput lists it as a pointer. After
    a recentre (home), a sweep from 15 degrees left to 15 right at 30 deg/s: the bridge's
    position trails the emulated turn by under 3 degrees throughout, settles within 0.25 degree
    of it when held; libinput's POINTER_MOTION_ABSOLUTE positions are the bridge's, in order,
    never going back during the sweep, from 12.5 % to 87.5 % of the width while y stays at 50 %."""
    pointer = start_streaming_to(rig, NAME, ADDRESS, CONFIG, POINTER, product=0x0005)
    try:
        assert pointer.device.input_props() == [], f"input properties: {pointer.device.input_props()}"
        capabilities = pointer.device.capabilities(absinfo=True)
        axes = dict(capabilities.get(ecodes.EV_ABS, []))
        assert sorted(axes) == [ecodes.ABS_X, ecodes.ABS_Y], f"pointer axes: {sorted(axes)}"
        for axis in axes.values():
            assert (axis.min, axis.max) == (0, MAXIMUM), axis
        assert sorted(capabilities.get(ecodes.EV_KEY, [])) == [ecodes.BTN_LEFT, ecodes.BTN_RIGHT, ecodes.BTN_MIDDLE], \
            f"pointer keys: {capabilities.get(ecodes.EV_KEY)}"
        assert ecodes.EV_REL not in capabilities, f"{capabilities}"
        check_pointer_class(pointer, POINTER, "ID_INPUT_MOUSE", "pointer")
        before = {name: pointer.device.absinfo(code).value for name, code in (("ABS_X", ecodes.ABS_X),
                                                                             ("ABS_Y", ecodes.ABS_Y))}
    finally:
        pointer.close()

    libinput = AbsoluteMotion(rig)
    pointer = InputDevice(pointer.path)
    recorder = FrameRecorder([pointer])
    try:
        started_at = len(libinput.text())
        mark = rig.emulator.mark()
        length = rig.play(NAME, timeline())
        start = rig.emulator.wait_event("play_started", NAME, since=mark, timeout=5)["t_ns"]
        rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=length + 30)
        # Until libinput has shown the bridge's last position (or 10 s; the checks below say what differs).
        wait_until(lambda: recorder.frames() and len(libinput.positions(libinput.text()[started_at:]))
                   >= len(recorder.frames()), timeout=10)
    finally:
        frames = [frame for _, frame in recorder.stop()]
        text = libinput.stop()
    seen = libinput.positions(text[started_at:])

    # The bridge's frames: the position after each, by the kernel's time of its write.
    state, written = dict(before), []
    for frame in frames:
        for event in frame.events:
            name, value = event.rsplit(" ", 1)
            assert name in ("ABS_X", "ABS_Y"), f"the pointer wrote {event}"
            state[name] = int(value)
        written.append(((frame.t_ns - start) / 1e6, state["ABS_X"], state["ABS_Y"]))
    assert len(written) > 40, f"only {len(written)} pointer frames: {frames}"

    lag = 0.0
    for ms, x, y in written:
        if ms >= SWEEP_FROM_MS + 100:
            lag = max(lag, abs(degrees_of(x, FIELD_X) - emulated_degrees(ms)))
        # From the recentre on (home at 100 ms), before which the zero is the stream's first packet's.
        if ms >= 150:
            assert abs(degrees_of(y, FIELD_Y)) < 0.1, f"y moved to {y} at {ms:.0f} ms without any pitch"
    assert lag < 3, f"the pointer trailed the sweep by {lag:.2f} degrees"
    held = [x for ms, x, _ in written if ms >= SWEEP_TO_MS]
    final = degrees_of(written[-1][1], FIELD_X)
    assert abs(final - emulated_degrees(HELD_UNTIL_MS)) < 0.25, \
        f"held at {emulated_degrees(HELD_UNTIL_MS):.2f} degrees, the pointer settled at {final:.2f} ({held})"

    # libinput: the same positions, in percent (x * 100 / 32768), in the same order.
    expected = [(round(x * 100 / (MAXIMUM + 1), 2), round(y * 100 / (MAXIMUM + 1), 2)) for _, x, y in written]
    assert len(seen) == len(expected) and all(abs(a - b) <= 0.01 and abs(c - d) <= 0.01
                                              for (a, c), (b, d) in zip(seen, expected)), \
        f"libinput's POINTER_MOTION_ABSOLUTE positions {seen} are not the bridge's {expected}"
    sweep = [x for (x, _), (ms, _, _) in zip(seen, written) if SWEEP_FROM_MS <= ms <= HELD_UNTIL_MS]
    assert all(later >= earlier for earlier, later in zip(sweep, sweep[1:])), f"libinput's x went back: {sweep}"
    assert abs(sweep[0] - 100 * (0.5 + START_DEG / FIELD_X)) < 1 and abs(sweep[-1] - 100 * (0.5 + END_DEG / FIELD_X)) < 1, \
        f"libinput's x swept from {sweep[0]} to {sweep[-1]} % (12.5 to 87.5 expected)"
    rig.figure(f"absolute pointer: {len(written)} frames, libinput's {len(seen)} POINTER_MOTION_ABSOLUTE the same; "
               f"lag at most {lag:.2f} degrees at 30 deg/s, settled {abs(final - emulated_degrees(HELD_UNTIL_MS)):.3f} "
               f"from the held turn")
