"""Gyro aiming (`gyro = { ... }`) as a game reads it: turning the emulated controller
deflects the right stick SDL sees (output = "right-stick"), and moves the pointer
libinput sees by the documented counts (output = "mouse", config/gyro-aim.toml)."""
from __future__ import annotations

import os

from bridge_helpers import GAMEPAD, MOUSE, start_streaming, stick_axis
from clients import SdlEvents
from input_devices import FrameRecorder, wait_for_device
from libinput_cli import DebugEventsLog, unaccelerated_motion
from packet import Packet
from rig import scenario
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
DEGREES_PER_SECOND_PER_COUNT = 2048 / 4095  # protocol.md: the gyro's scale
# The controller's axes: x right, y up out of the pad, z toward the player; a positive rate
# about y turns it left, about x tips its tip up.
SLOW, FAST, PITCH = -100, -300, 200  # raw counts: 50 and 150 deg/s to the right, 100 deg/s up
TURNS = f"""rate 60
at 300ms   gyro 0 {SLOW} 0       # turning right, slowly
at 800ms   gyro 0 {FAST} 0       # three times as fast
at 1300ms  gyro 0 0 0            # held still
at 1600ms  gyro {PITCH} 0 0      # tipping the tip up
at 2100ms  gyro 0 0 0            # held still
at 2400ms  end
"""

STICK_CONFIG = """
[profile.gyro-stick]
gyro = { output = "right-stick" }
click = "BTN_SOUTH"
"""
STICK_SPEED = 360.0  # deg/s for full deflection (the default `stick-speed`)


def stick_value(raw: int) -> int:
    """The stick's value for a turn of `raw` gyro counts about one axis with the default
    settings (sens 1, power 1, no undeadzone): the turn's degrees per second over
    `stick-speed`, along the turn (positive: right, or down)."""
    return stick_axis(-raw * DEGREES_PER_SECOND_PER_COUNT / STICK_SPEED)


def changes(values: list[int]) -> list[int]:
    """`values` without the rest before the first motion and without repeats."""
    out: list[int] = []
    for value in values:
        if (out and out[-1] == value) or (not out and value == 0):
            continue
        out.append(value)
    return out


@scenario("gyro to the right stick: SDL's rightx/righty follow the turn and centre when it stops",
          needs=("run",), udev=True)
def gyro_right_stick_sdl(rig):
    """gyro = { output = "right-stick" }: turning right at 50 deg/s then 150 deg/s gives the
    right stick 50/360 then 150/360 of full deflection to the right (4552 then 13656, three
    times as far), held still it centres (0), tipping the tip up at 100 deg/s pushes it up
    (-9104), then centred again: the bridge's ABS_RX/ABS_RY and SDL 2's rightx/righty
    (SDL_CONTROLLERAXISMOTION, with udev) take exactly these values, in this order."""
    start_streaming(rig, NAME, ADDRESS, STICK_CONFIG)
    pad = wait_for_device(lambda n: n == GAMEPAD, timeout=30)
    expected = {"rightx": [stick_value(SLOW), stick_value(FAST), 0], "righty": [stick_value(PITCH), 0]}
    assert expected == {"rightx": [4552, 13656, 0], "righty": [-9104, 0]}, expected  # the sums by hand

    sdl = SdlEvents(rig, udev=True, name="sdl-gyro-stick")
    recorder = FrameRecorder([pad])
    try:
        mark = rig.emulator.mark()
        length = rig.play(NAME, TURNS)
        rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=length + 30)

        def sdl_axes() -> dict[str, list[int]]:
            events = [e for e in sdl.events() if e["event"] == "axis"]
            return {axis: changes([e["value"] for e in events if e["name"] == axis]) for axis in expected}
        # Until SDL has shown the stick centred after the pitch (or 10 s; the assertion says what differs).
        wait_until(lambda: sdl_axes() == expected, timeout=10)
    finally:
        frames = [frame for _, frame in recorder.stop()]
        sdl.stop()
    written = {"rightx": changes([int(e.split()[1]) for f in frames for e in f.events if e.startswith("ABS_RX ")]),
               "righty": changes([int(e.split()[1]) for f in frames for e in f.events if e.startswith("ABS_RY ")])}
    assert written == expected, f"the bridge's right stick (ABS_RX, ABS_RY) {written}, expected {expected}; {frames}"
    others = [e for f in frames for e in f.events if not e.startswith(("ABS_RX ", "ABS_RY "))]
    assert not others, f"turning the controller wrote {others} on the gamepad"
    seen = sdl_axes()
    assert seen == expected, f"SDL's rightx/righty went {seen}, expected {expected}; all: {sdl.events()}"
    rig.figure(f"gyro to right stick: SDL rightx {seen['rightx']} at 50 and 150 deg/s "
               f"(x{seen['rightx'][1] / seen['rightx'][0]:.2f}), righty {seen['righty']} at 100 deg/s up")


def expected_counts(sent: list[bytes], counts_per_degree: float) -> tuple[float, float]:
    """The mouse counts the documented formula gives for the packets `sent` (sens 1):
    degrees turned x counts-per-degree, each packet's rate over the time since the one
    before by the controller's clock (its time field, ms, wrapping at 512), at most 50 ms
    at once; right and down positive."""
    x = y = 0.0
    for before, packet in zip(sent, sent[1:]):
        earlier, later = Packet.decode(before), Packet.decode(packet)
        seconds = min(((later.time - earlier.time) % 512) / 1000, 0.05)
        x += -later.gyro_y * DEGREES_PER_SECOND_PER_COUNT * seconds * counts_per_degree
        y += -later.gyro_x * DEGREES_PER_SECOND_PER_COUNT * seconds * counts_per_degree
    return x, y


@scenario("gyro to the mouse (config/gyro-aim.toml): libinput's motion is the turn's degrees x counts-per-degree",
          needs=("run",), udev=True)
def gyro_mouse_libinput(rig):
    """config/gyro-aim.toml's shooter (gyro to the mouse, sens 1, counts-per-degree 17.45,
    tightening below 2 deg/s, smoothing below 4): the same turns move the pointer right by
    25 + 75 degrees' worth and up by 50 degrees' worth, by the controller's clock of the
    packets the emulator sent; the bridge's REL_X/REL_Y sums are that within a count (the
    fractions it carries), every REL_X right and every REL_Y up, and libinput's unaccelerated
    POINTER_MOTION sums are the bridge's exactly."""
    with open(os.path.join(rig.repo, "config", "gyro-aim.toml"), encoding="utf-8") as file:
        config = file.read()
    assert 'profile = "shooter"' in config and "counts-per-degree = 17.45" in config, \
        "config/gyro-aim.toml no longer starts in the shooter with counts-per-degree = 17.45"
    start_streaming(rig, NAME, ADDRESS, config)
    mouse = wait_for_device(lambda n: n == MOUSE, timeout=30)

    libinput = DebugEventsLog(rig.logs, "libinput-gyro-events", [MOUSE])
    recorder = FrameRecorder([mouse])
    sent_path = os.path.join(rig.logs, "vhci-gyro-mouse.txt")
    try:
        started_at = len(libinput.text())
        # What the emulator writes to /dev/vhci from here on, with its time field.
        rig.emulator.request("notifications", path=sent_path, clear=True)
        mark = rig.emulator.mark()
        length = rig.play(NAME, TURNS)
        rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=length + 30)

        def totals(pairs) -> tuple[int, int]:
            return round(sum(x for x, _ in pairs), 2), round(sum(y for _, y in pairs), 2)

        def written() -> tuple[int, int]:
            events = [e.split() for _, f in recorder.frames() for e in f.events]
            return (sum(int(v) for code, v in events if code == "REL_X"),
                    sum(int(v) for code, v in events if code == "REL_Y"))
        # Until libinput's totals are the bridge's and the bridge has turned up (or 10 s).
        wait_until(lambda: written()[1] < 0 and totals(unaccelerated_motion(libinput.text()[started_at:])) == written(),
                   timeout=10)
        rig.emulator.request("notifications", path=sent_path, clear=True)
    finally:
        frames = [frame for _, frame in recorder.stop()]
        text = libinput.stop()
    with open(sent_path, encoding="utf-8") as file:
        sent = [data for data in (bytes.fromhex(line.split()[3]) for line in file) if len(data) == 20]

    exact_x, exact_y = expected_counts(sent, 17.45)
    events = [e.split() for f in frames for e in f.events]
    rel_x = [int(v) for code, v in events if code == "REL_X"]
    rel_y = [int(v) for code, v in events if code == "REL_Y"]
    others = [" ".join(e) for e in events if e[0] not in ("REL_X", "REL_Y")]
    assert not others, f"turning the controller wrote {others} on the mouse"
    assert rel_x and all(v > 0 for v in rel_x), f"REL_X {rel_x}: a right turn must move right only"
    assert rel_y and all(v < 0 for v in rel_y), f"REL_Y {rel_y}: tipping up must move up only"
    assert abs(sum(rel_x) - exact_x) < 1 and abs(sum(rel_y) - exact_y) < 1, \
        f"the bridge moved ({sum(rel_x)}, {sum(rel_y)}); the turns sent give ({exact_x:.2f}, {exact_y:.2f}) " \
        f"counts ({len(sent)} packets)"
    # The rig sent every turn: each rate in at least 10 of the about 30 packets of its 0.5 s. How
    # many degrees that makes is the emulator's schedule, which slips on a loaded machine; the
    # bridge is judged above against the packets it really got, whatever their number.
    rates = [(Packet.decode(data).gyro_x, Packet.decode(data).gyro_y) for data in sent]
    for rate, label in (((0, SLOW), "slow right"), ((0, FAST), "fast right"), ((PITCH, 0), "tip up")):
        assert rates.count(rate) >= 10, f"the emulator sent {rates.count(rate)} packets of the {label} turn {rate}"
    about_x = (-SLOW - FAST) * DEGREES_PER_SECOND_PER_COUNT * 0.5 * 17.45
    about_y = -PITCH * DEGREES_PER_SECOND_PER_COUNT * 0.5 * 17.45
    rig.figure(f"gyro to mouse: the emulator's turns came to ({exact_x:.1f}, {exact_y:.1f}) counts by the controller's "
               f"clock, {exact_x / about_x:.3f}x and {exact_y / about_y:.3f}x the schedule's ({about_x:.0f}, {about_y:.0f})")
    motion = unaccelerated_motion(text[started_at:])
    seen = totals(motion)
    assert seen == (sum(rel_x), sum(rel_y)), \
        f"libinput's unaccelerated POINTER_MOTION totals {seen} from {len(motion)} events; the bridge's " \
        f"({sum(rel_x)}, {sum(rel_y)})"
    rig.figure(f"gyro to mouse (gyro-aim.toml's shooter): libinput ({seen[0]:.0f}, {seen[1]:.0f}) counts = the "
               f"bridge's, formula ({exact_x:.2f}, {exact_y:.2f}), {len(motion)} POINTER_MOTION events")
