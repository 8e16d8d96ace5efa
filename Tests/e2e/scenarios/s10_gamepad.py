"""Pairing from scratch through the bridge, then the default profile's gamepad."""
from __future__ import annotations

import time

from evdev import ecodes

from bluez import DEVICE, FE55, device_path
from bridge_helpers import (
    ensure_paired,
    expected_gamepad_frames,
    gamepad,
    play_and_read,
    run_bridge_command,
    start_bridge,
    wait_streaming,
)
from input_devices import expect_frames
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"


@scenario("bridge: pairing from scratch, then the gamepad profile", needs=("pair", "run"))
def bridge_pair_gamepad(rig):
    """`daydream-bridge pair` pairs a new controller (Just Works, its agent); `run` makes
    the gamepad; the stick, every button, and home tapped vs held come out exactly."""
    rig.controller(NAME, ADDRESS)
    rig.bluez.remove_all_devices(rig.adapter)
    rig.emulator.request("forget_bonds", name=NAME)
    assert not rig.emulator_state(NAME)["bonds"], "the emulated controller still has a bond"
    ensure_paired(rig, NAME, ADDRESS)
    assert FE55 in [str(u).lower() for u in rig.bluez.get(device_path(ADDRESS, rig.adapter), DEVICE, "UUIDs")]

    mark = rig.emulator.mark()
    started = time.monotonic()
    bridge = start_bridge(rig)
    pad = gamepad(rig)
    streaming = wait_streaming(rig, NAME, since=mark)
    rig.figure(f"bridge start -> notifying: {streaming - started:.1f} s")

    capabilities = pad.capabilities()
    keys = set(capabilities.get(ecodes.EV_KEY, []))
    for code in ("BTN_SOUTH", "BTN_EAST", "BTN_MODE", "BTN_START", "BTN_TL", "BTN_TR"):
        assert ecodes.ecodes[code] in keys, f"the gamepad lacks {code}"
    axes = dict(capabilities.get(ecodes.EV_ABS, []))
    for axis in (ecodes.ABS_X, ecodes.ABS_Y):
        info = axes.get(axis)
        assert info and (info.min, info.max, info.value) == (-32768, 32767, 0), f"axis {axis}: {info}"
    assert ecodes.EV_REL not in capabilities, "the gamepad has relative axes (a mouse to udev)"

    _, frames = play_and_read(rig, NAME, "gamepad", [pad])
    expect_frames(frames[pad], expected_gamepad_frames(rig), "gamepad")
    state = rig.emulator_state(NAME)
    assert state["firmware_writes"] == 0, "the bridge wrote to the firmware-update service"

    if "list" in rig.bridge_commands():
        listed = run_bridge_command(rig, "list")
        assert listed.returncode == 0 and ADDRESS in listed.stdout.upper(), \
            f"daydream-bridge list does not show {ADDRESS}:\n{listed.stdout}{listed.stderr}"
    pad.close()
    assert bridge.alive(), "the bridge died"
