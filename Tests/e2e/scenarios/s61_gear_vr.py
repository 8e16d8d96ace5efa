"""A Samsung Gear VR controller (the emulated one: real GATT table, echoes, 68 packets a
second of three samples) through the bridge: pairing from scratch, the start order, the
gamepad with its trigger and back, the mouse, and two controllers of different families
at once, each in its own profile."""
from __future__ import annotations

from evdev import ecodes

from bluez import DEVICE, device_path
from bridge_helpers import (
    GAMEPAD,
    KEYBOARD,
    MOUSE,
    ensure_paired,
    gamepad,
    play_and_read,
    relative,
    run_bridge_command,
    start_bridge,
    stick,
    unpair,
    wait_streaming,
)
from gear_vr import DATA_SERVICE, GEAR, GEAR_ADDRESS, GEAR_NAME, gear_stick, gear_vr, start_order
from input_devices import expect_frames, read_many, wait_for_device
from rig import scenario

GAMEPAD_CONFIG = """
[bridge]
profile = "gear"

[profile.gear]
click = "BTN_SOUTH"
trigger = "BTN_WEST"
back = "BTN_NORTH"
home = { tap = "BTN_MODE", hold = "BTN_START" }
volume-up = "BTN_TR"
volume-down = "BTN_TL"
touchpad = { mode = "stick", deadzone = 0.1, saturation = 0.9, shape = "circle" }
"""

# The pad's round rim in Gear VR counts (0...315), then every button.
GAMEPAD_TIMELINE = """
at 0ms     touch 315 158
at 300ms   touch 158 1
at 600ms   touch 50 260
at 900ms   touch 158 158
at 1200ms  lift
at 1400ms  tap click 150ms
at 1700ms  tap trigger 150ms
at 2000ms  tap back 150ms
at 2300ms  tap volume-up 150ms
at 2600ms  tap volume-down 150ms
at 2900ms  tap home 200ms
at 3400ms  press home
at 4800ms  release home
at 5100ms  end
"""


GAMEPAD_BUTTONS = ("BTN_SOUTH", "BTN_WEST", "BTN_NORTH", "BTN_TR", "BTN_TL", "BTN_MODE", "BTN_START")


def expected_stick_frames() -> list[list[str]]:
    frames, axes = [], (0, 0)
    for point in ((315, 158), (158, 1), (50, 260), (158, 158)):
        value = gear_stick(*point)
        frame = [f"ABS_{axis} {new}" for axis, new, old in zip("XY", value, axes) if new != old]
        if frame:
            frames.append(frame)
        axes = value
    return frames


def check_buttons(frames) -> None:
    """Each button pressed once and released once, the presses in the timeline's order. (A
    release may come after the next press: in a loaded guest a press seen late is held for
    the bridge's tap-time.)"""
    events = [e for f in frames for e in f.events if e.startswith("BTN_")]
    presses = [e.split()[0] for e in events if e.endswith(" 1")]
    assert presses == list(GAMEPAD_BUTTONS), f"presses {presses}, expected {list(GAMEPAD_BUTTONS)}; all: {events}"
    for button in GAMEPAD_BUTTONS:
        mine = [e for e in events if e.split()[0] == button]
        assert mine == [f"{button} 1", f"{button} 0"], f"{button}: {mine}"


@scenario("gear vr: pairing from scratch, the start order, the gamepad with trigger and back",
          needs=("pair", "run"))
def gear_vr_pair_gamepad(rig):
    """`daydream-bridge pair` finds the Gear VR by its name and pairs it (Just Works); `run`
    writes 0800, waits for the 08 00 echo, then writes 0100 (never 0100 early); the echo is
    no input; the touchpad as a stick over its 0...315 counts, click, trigger, back, the
    volume buttons and home tapped and held come out exactly; a keep-alive (0400) comes
    within 12 s; nothing is written to the firmware service."""
    gear_vr(rig)
    rig.bluez.remove_all_devices(rig.adapter)
    rig.emulator.request("forget_bonds", name=GEAR)
    ensure_paired(rig, GEAR, GEAR_ADDRESS)
    path = device_path(GEAR_ADDRESS, rig.adapter)
    assert rig.bluez.get(path, DEVICE, "Name") == GEAR_NAME, rig.bluez.get(path, DEVICE, "Name")
    assert DATA_SERVICE in [str(u).lower() for u in rig.bluez.get(path, DEVICE, "UUIDs")]

    mark = rig.emulator.mark()
    bridge = start_bridge(rig, GAMEPAD_CONFIG)
    pad = gamepad(rig)
    wait_streaming(rig, GEAR, since=mark)
    order = start_order(rig, GEAR, since=mark)
    rig.figure(f"gear vr start: {', '.join(order)}")
    keys = set(pad.capabilities().get(ecodes.EV_KEY, []))
    for code in ("BTN_WEST", "BTN_NORTH"):
        assert ecodes.ecodes[code] in keys, f"the gamepad lacks {code} (trigger, back)"

    _, frames = play_and_read(rig, GEAR, GAMEPAD_TIMELINE, [pad])
    sticks = [f for f in frames[pad] if any(e.startswith("ABS_") for e in f.events)]
    expect_frames(sticks, expected_stick_frames(), "gear vr gamepad's stick")
    assert all(all(e.startswith("ABS_") for e in f.events) or all(e.startswith("BTN_") for e in f.events)
               for f in frames[pad]), f"a frame with the stick and a button: {frames[pad]}"
    check_buttons(frames[pad])
    rig.emulator.wait_event("keepalive", GEAR, since=mark, timeout=12)
    state = rig.emulator_state(GEAR)
    assert state["firmware_writes"] == 0, "the bridge wrote to the firmware-update service"
    assert state["streaming"] == 1, f"the stream is not running: {state}"

    listed = run_bridge_command(rig, "list")
    assert listed.returncode == 0 and GEAR_ADDRESS in listed.stdout.upper(), \
        f"daydream-bridge list does not show {GEAR_ADDRESS}:\n{listed.stdout}{listed.stderr}"
    pad.close()
    mark = rig.emulator.mark()
    bridge.stop()
    rig.emulator.wait_event("command", GEAR, since=mark, timeout=10, value="0000")
    rig.figure("gear vr: the bridge wrote 0000 when it stopped")


MOUSE_CONFIG = """
[bridge]
profile = "gear-mouse"

[profile.gear-mouse]
touchpad = { mode = "trackpad", speed = 1.0, acceleration = 1.0 }
trigger = "BTN_LEFT"
back = "BTN_RIGHT"
click = "BTN_MIDDLE"
home = "KEY_LEFTMETA"
"""
MOUSE_TIMELINE = """
at 0ms     touch 80 158
at 100ms   touch 80 158 -> 240 158 over 300ms
at 600ms   lift
at 800ms   touch 158 240
at 900ms   touch 158 240 -> 158 80 over 300ms
at 1400ms  lift
at 1600ms  tap trigger 150ms
at 1900ms  tap back 150ms
at 2200ms  tap click 150ms
at 2500ms  tap home 150ms
at 2900ms  end
"""


@scenario("gear vr: the mouse (trackpad over 0...315, trigger and back as mouse buttons)", needs=("run",))
def gear_vr_mouse(rig):
    """A swipe right moves the pointer right only, a swipe up moves it up only, by the same
    amount (the pad is round: the same counts each way); trigger, back and click are the
    left, right and middle buttons, home a key."""
    gear_vr(rig)
    ensure_paired(rig, GEAR, GEAR_ADDRESS)
    mark = rig.emulator.mark()
    start_bridge(rig, MOUSE_CONFIG)
    mouse = wait_for_device(lambda n: n == MOUSE, timeout=30)
    keyboard = wait_for_device(lambda n: n == KEYBOARD, timeout=10)
    wait_streaming(rig, GEAR, since=mark)
    # Subscribed is not streaming: the Gear VR sends nothing before 0800, its echo, 0100.
    start_order(rig, GEAR, since=mark)
    start, frames = play_and_read(rig, GEAR, MOUSE_TIMELINE, [mouse, keyboard])
    xs = relative(frames[mouse], start, "REL_X")
    ys = relative(frames[mouse], start, "REL_Y")
    right = [v for t, v in xs if t < 700]
    up = [v for t, v in ys if t >= 700]
    assert right and all(v > 0 for v in right), f"the swipe right gave REL_X {right}"
    assert not [v for t, v in ys if t < 700], "the swipe right moved the pointer up or down"
    assert up and all(v < 0 for v in up), f"the swipe up gave REL_Y {up}"
    assert not [v for t, v in xs if t >= 700], "the swipe up moved the pointer sideways"
    assert abs(sum(right) + sum(up)) <= 0.1 * sum(right) + 2, \
        f"right {sum(right)} and up {-sum(up)} counts for the same swipe across a round pad"
    buttons = [e for f in frames[mouse] for e in f.events if e.startswith("BTN_")]
    assert buttons == ["BTN_LEFT 1", "BTN_LEFT 0", "BTN_RIGHT 1", "BTN_RIGHT 0", "BTN_MIDDLE 1", "BTN_MIDDLE 0"], \
        f"mouse buttons {buttons}"
    expect_frames(frames[keyboard], [["KEY_LEFTMETA 1"], ["KEY_LEFTMETA 0"]], "gear vr keyboard")
    rig.figure(f"gear vr trackpad: {sum(right)} counts right, {-sum(up)} up for swipes of 160 counts")


PAD_ONLY = """
at 0ms    tap click 150ms
at 400ms  end
"""
GEAR_ONLY = """
at 0ms    tap trigger 150ms
at 400ms  end
"""
TWO_CONFIG = f"""
[bridge]
profile = "daydream-pad"

[controller."{GEAR_ADDRESS}"]
profile = "gear-pad"

[profile.daydream-pad]
click = "BTN_SOUTH"
touchpad = {{ mode = "stick", deadzone = 0.1, saturation = 0.9, shape = "circle" }}

[profile.gear-pad]
trigger = "BTN_EAST"
click = "BTN_NORTH"
touchpad = {{ mode = "stick", deadzone = 0.1, saturation = 0.9, shape = "circle" }}
"""
DAYDREAM, DAYDREAM_ADDRESS = "pad", "C0:DD:EE:00:00:01"


@scenario("gear vr and a daydream at once: two gamepads, each in its own profile", needs=("run",))
def gear_vr_with_daydream(rig):
    """A Daydream and a Gear VR paired: each gets its own gamepad; the Daydream in the
    bridge's profile (click = BTN_SOUTH), the Gear VR in the one its [controller] table names
    (trigger = BTN_EAST, click = BTN_NORTH); one's input never shows on the other, also while
    both move."""
    ensure_paired(rig, DAYDREAM, DAYDREAM_ADDRESS)
    gear_vr(rig)
    ensure_paired(rig, GEAR, GEAR_ADDRESS)
    try:
        mark = rig.emulator.mark()
        start_bridge(rig, TWO_CONFIG)
        wait_streaming(rig, DAYDREAM, since=mark)
        wait_streaming(rig, GEAR, since=mark)
        start_order(rig, GEAR, since=mark)
        first = wait_for_device(lambda n: n == GAMEPAD, timeout=30)
        second = wait_for_device(lambda n: n == GAMEPAD, timeout=30, exclude=(first.path,))

        _, frames = play_and_read(rig, DAYDREAM, PAD_ONLY, [first, second])
        if frames[first] and not frames[second]:
            daydream_pad, gear_pad = first, second
        elif frames[second] and not frames[first]:
            daydream_pad, gear_pad = second, first
        else:
            raise AssertionError(f"the daydream's click on both or neither gamepad: {frames[first]} / {frames[second]}")
        expect_frames(frames[daydream_pad], [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]], "the daydream's gamepad")

        _, frames = play_and_read(rig, GEAR, GEAR_ONLY, [daydream_pad, gear_pad])
        expect_frames(frames[gear_pad], [["BTN_EAST 1"], ["BTN_EAST 0"]], "the gear vr's gamepad (its own profile)")
        expect_frames(frames[daydream_pad], [], "the daydream's gamepad while only the gear vr is used")

        for device in (daydream_pad, gear_pad):
            device.drain()
        mark = rig.emulator.mark()
        rig.play(DAYDREAM, "at 0ms touch 255 128\nat 200ms tap click 300ms\nat 900ms lift\nat 1100ms end\n")
        length = rig.play(GEAR, "at 0ms touch 1 158\nat 200ms tap click 300ms\nat 900ms lift\nat 1100ms end\n")
        frames = read_many([daydream_pad, gear_pad], length + 1.0)
        rig.emulator.wait_event("play_finished", DAYDREAM, since=mark)
        rig.emulator.wait_event("play_finished", GEAR, since=mark)
        dx, dy = stick(255, 128)
        gx, gy = gear_stick(1, 158)
        expect_frames(frames[daydream_pad], [[f"ABS_X {dx}", f"ABS_Y {dy}"], ["BTN_SOUTH 1"], ["BTN_SOUTH 0"],
                                             ["ABS_X 0", "ABS_Y 0"]], "the daydream while both move")
        expect_frames(frames[gear_pad], [[f"ABS_X {gx}"] + ([f"ABS_Y {gy}"] if gy else []), ["BTN_NORTH 1"],
                                         ["BTN_NORTH 0"], ["ABS_X 0"] + (["ABS_Y 0"] if gy else [])],
                      "the gear vr while both move")
        for device in (daydream_pad, gear_pad):
            device.close()
    finally:
        unpair(rig, GEAR, GEAR_ADDRESS)  # later scenarios expect one controller
