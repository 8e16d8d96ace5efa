"""identity = "dualsense": the gamepad as a virtual DualSense (on Bluetooth) over /dev/uhid.
The kernel's hid-playstation binds it and makes its three nodes and a battery;
evdev reads back exactly what the controller did; SDL 2.26 (Debian's) and SDL 2.32
at its defaults (as pygame-ce's wheel bundles it, built with udev) read it through
hidraw as a PS5 controller with a gyro, an accelerometer and one touchpad whose
values follow the controller's motion and finger; SDL 2.32 agrees through the
kernel's motion node with SDL_JOYSTICK_HIDAPI=0, and, as pysdl2-dll's wheel builds
it (without udev, so without SDL's hidraw backend), opens the pad through evdev
with no touchpad."""
from __future__ import annotations

import glob
import json
import math
import os
import select
import subprocess
import sys
import time

from evdev import ecodes

from bridge_helpers import play_and_read, start_streaming, unpair
from clients import pygame_ce_sdl, pysdl2_dll_sdl, sdl_devices, sdl_environment, sdl_probe
from input_devices import InputDevice, dualsense_hidraw, list_devices
from processes import modprobe
from rig import scenario
from udev_rules import DEVICE_RULES, installed_rules, udev_tags

NAME, ADDRESS = "dualsense", "C0:DD:EE:00:00:29"
# The controller's address with the locally administered bit flipped, as the kernel prints it.
UNIQ = "c2:dd:ee:00:00:29"
PAD = "Daydream Controller DualSense"
SONY, DUALSENSE = 0x054C, 0x0CE6
SDL_CONTROLLER_TYPE_PS5 = 7
# The two poses timelines/dualsense.tl steps between, in the packet's counts: gyro, then accel.
MOTION_A = ((400, -200, 100), (256, -512, 128))
MOTION_B = ((-300, 250, -150), (-128, 384, -256))
# What SDL may also have read: nothing yet, the emulator at rest before the timeline, its start.
OTHER_POSES = (((0, 0, 0), (0, 0, 0)), ((0, 0, 0), (0, 520, 11)), ((0, 0, 0), (0, 512, 0)))
# The timeline's finger (touch 255 128) on the DualSense's pad, 1920 by 1080, as the bridge sends it.
TOUCH_X, TOUCH_Y = 1919, round(128 / 255 * 1079)
# SDL's PS5 driver divides the pad's x by 1920 and its y by 1070 (TOUCHPAD_SCALEX/Y in
# src/joystick/hidapi/SDL_hidapi_ps5.c, 2.26 and 2.32 alike).
SDL_FINGER = (TOUCH_X / 1920, TOUCH_Y / 1070)
# Byte 14 of an SDL 2 joystick GUID names the driver: 'h' (0x68) for HIDAPI, 0 for Linux's evdev.
GUID_DRIVER = slice(28, 30)
HIDAPI_GUID_DRIVER = "68"

CONFIG = """
[gamepad]
identity = "dualsense"

[profile.pad]
click = "BTN_SOUTH"
app = "BTN_EAST"
home = "BTN_MODE"
volume-up = "BTN_TL2"
volume-down = "BTN_TR"
touchpad = { mode = "none" }
"""

# The Daydream packet's units (DaydreamProtocol's Units.swift, with UnitConversion's standard
# gravity) and the DualSense's.
G = 9.80665
GYRO_DEG_PER_COUNT = 2048.0 / 4095.0
ACCEL_MS2_PER_COUNT = 8.0 * G / 4095.0


def dualsense_gyro(raw: int) -> int:
    """What hid-playstation reports on ABS_RX/RY/RZ: 16 counts per deg/s in, times 64."""
    return round(raw * GYRO_DEG_PER_COUNT * 16) * 64


def dualsense_accel(raw: int) -> int:
    """What it reports on ABS_X/Y/Z: 8192 per g, as sent."""
    return round(raw * ACCEL_MS2_PER_COUNT / G * 8192)


def wait_nodes(timeout: float = 30.0) -> dict[str, InputDevice]:
    """The pad, motion and touchpad nodes hid-playstation made, by role."""
    names = {"pad": PAD, "motion": f"{PAD} Motion Sensors", "touchpad": f"{PAD} Touchpad"}
    deadline = time.monotonic() + timeout
    while True:
        present = list_devices()
        found = {role: path for role, name in names.items() for path, n in present.items() if n == name}
        if len(found) == len(names):
            return {role: InputDevice(path) for role, path in found.items()}
        if time.monotonic() > deadline:
            raise AssertionError(f"hid-playstation made {sorted(found)} of the three nodes within {timeout:.0f} s; "
                                 f"present: {sorted(present.values())}")
        time.sleep(0.2)


def battery_capacity(timeout: float, expected: int) -> int:
    path = f"/sys/class/power_supply/ps-controller-battery-{UNIQ}/capacity"
    deadline = time.monotonic() + timeout
    value = -1
    while time.monotonic() < deadline:
        if os.path.exists(path):
            with open(path, encoding="ascii") as file:
                value = int(file.read().strip())
            if value == expected:
                return value
        time.sleep(0.2)
    supplies = glob.glob("/sys/class/power_supply/*")
    raise AssertionError(f"{path}: capacity {value}, expected {expected}; power supplies: {supplies}")


@scenario("dualsense: hid-playstation's nodes, battery, evdev, SDL's PS5 controller", needs=("pair", "run"), udev=True)
def bridge_dualsense(rig):
    """uhid and hid-playstation loaded; the bridge with identity "dualsense" makes a DualSense whose
    three nodes share the derived uniq, whose battery is the controller's, whose events read back
    exactly, and which SDL 2.26 and 2.32 at their defaults (HIDAPI, through hidraw) see as a PS5
    controller whose gyro, accelerometer and touchpad follow the controller's, and SDL 2.32 with
    SDL_JOYSTICK_HIDAPI=0 through the kernel's nodes."""
    modprobe("uhid")
    modprobe("hid-playstation")
    with open(os.path.join(rig.repo, "udev", DEVICE_RULES), encoding="utf-8") as file:
        device_rules = file.read()
    with installed_rules({DEVICE_RULES: device_rules}):
        check_dualsense(rig)


def check_dualsense(rig):
    """The scenario, with the shipped device rules in udev."""
    rig.controller(NAME, ADDRESS)
    bridge = start_streaming(rig, NAME, ADDRESS, CONFIG)
    nodes = wait_nodes()
    try:
        for role, node in nodes.items():
            assert node.device.uniq == UNIQ, f"{role} node {node.path}: uniq {node.device.uniq!r}, expected {UNIQ}"
            info = node.device.info
            assert (info.vendor, info.product) == (SONY, DUALSENSE), f"{role} node ids {info}"
        motion_axes = dict(nodes["motion"].capabilities().get(ecodes.EV_ABS, []))
        assert motion_axes[ecodes.ABS_RX].resolution == 1024 and motion_axes[ecodes.ABS_X].resolution == 8192, \
            f"motion resolutions: {motion_axes}"
        # The emulated controller's battery is 87 %: the report carries tenths, the kernel adds 5.
        battery_capacity(15.0, expected=85)
        # The shipped rules give the seat user the nodes SDL and Steam read the motion from.
        hidraw = dualsense_hidraw()
        for node in (hidraw, nodes["motion"].path):
            assert "uaccess" in udev_tags(node), f"{DEVICE_RULES} did not tag {node} uaccess: {udev_tags(node)}"

        # Every SDL opens the pad and enables its sensors before the timeline plays, and reads
        # until it has: every pose and the finger reach them while they watch.
        bundled = pygame_ce_sdl()
        probes = [SensorProbe(rig, "sdl_probe sensors", [sdl_probe(rig), "sensors"]),
                  SensorProbe(rig, "sdl_probe sensors on pygame-ce's SDL", [sdl_probe(rig), "sensors"], bundled),
                  SensorProbe(rig, "sdl_evdev_probe", [sys.executable, os.path.join(rig.e2e, "clients",
                                                                                      "sdl_evdev_probe.py")])]
        try:
            for probe in probes:
                probe.wait_ready()
            _, frames = play_and_read(rig, NAME, "dualsense", list(nodes.values()))
        finally:
            debian_result, bundled_result, evdev_result = (probe.finish() for probe in probes)

        pad_events = [event for frame in frames[nodes["pad"]] for event in frame.events]
        assert "BTN_SOUTH 1" in pad_events and "BTN_SOUTH 0" in pad_events, f"pad: {frames[nodes['pad']]}"
        assert pad_events.index("BTN_SOUTH 1") < pad_events.index("BTN_SOUTH 0")

        touch = [event for frame in frames[nodes["touchpad"]] for event in frame.events]
        assert f"ABS_MT_POSITION_X {TOUCH_X}" in touch, f"touchpad: {frames[nodes['touchpad']]}"
        assert f"ABS_MT_POSITION_Y {TOUCH_Y}" in touch, f"touchpad: {frames[nodes['touchpad']]}"
        assert "BTN_TOUCH 1" in touch and "BTN_TOUCH 0" in touch, f"touchpad: {frames[nodes['touchpad']]}"

        last = {}
        for frame in frames[nodes["motion"]]:
            for type_, code, value in frame.raw:
                if type_ == ecodes.EV_ABS:
                    last[code] = value
        (gx, gy, gz), (ax, ay, az) = MOTION_B  # the timeline's last pose
        expected = {
            ecodes.ABS_RX: dualsense_gyro(gx), ecodes.ABS_RY: dualsense_gyro(gy), ecodes.ABS_RZ: dualsense_gyro(gz),
            ecodes.ABS_X: dualsense_accel(ax), ecodes.ABS_Y: dualsense_accel(ay), ecodes.ABS_Z: dualsense_accel(az),
        }
        assert {code: last.get(code) for code in expected} == expected, f"motion: last {last}, expected {expected}"

        # SDL's HIDAPI driver, not its evdev one, has the pad: the one that reads gyro and touchpad.
        check_hidapi(rig, "Debian's", sdl_devices(rig, label="dualsense"), debian_result)
        check_hidapi(rig, "pygame-ce's", sdl_devices(rig, label="dualsense", library=bundled), bundled_result)

        # An SDL built without udev has no hidraw backend on Linux: a game bundling pysdl2-dll's
        # gets the pad through evdev (its motion is checked below, with SDL_JOYSTICK_HIDAPI=0,
        # the same path), and no touchpad.
        header, joysticks = sdl_devices(rig, label="dualsense", library=pysdl2_dll_sdl())
        controller = ps5_controller(header, joysticks)
        sdl = f"SDL {header['sdl']} (pysdl2-dll's, defaults)"
        assert str(controller.get("path", "")).startswith("/dev/input/event") \
            and controller["guid"][GUID_DRIVER] != HIDAPI_GUID_DRIVER \
            and controller.get("touchpads") == 0, f"{sdl} opened {controller}"
        rig.figure(f"{sdl}: through evdev {controller['path']}, GUID {controller['guid']}, gyro "
                   f"{controller.get('gyro')}, accelerometer {controller.get('accel')}, "
                   f"touchpads {controller['touchpads']}")

        sdl = f"SDL {evdev_result.get('sdl')} with SDL_JOYSTICK_HIDAPI=0"
        assert evdev_result.get("sensors"), f"{sdl}: no controller with sensors: {evdev_result}"
        readings = evdev_result["readings"]
        seen_a, seen_b = (count_pose(readings, pose) for pose in (MOTION_A, MOTION_B))
        assert seen_a and seen_b, f"{sdl}: poses A {seen_a} and B {seen_b} times in {readings}"
        assert matches(readings[-1], MOTION_B), f"{sdl}: last reading {readings[-1]}, not the last pose"
        rig.figure(f"{sdl}: {len(readings)} distinct samples, pose A {seen_a} times, B {seen_b} times; "
                   f"touchpads {evdev_result.get('touchpads')}")
    finally:
        for node in nodes.values():
            node.close()
    assert bridge.alive(), "the bridge died"
    unpair(rig, NAME, ADDRESS)


def ps5_controller(header: dict, joysticks: list[dict]) -> dict:
    """The one PS5 game controller among what `sdl_probe devices` listed."""
    ps5 = [j for j in joysticks if (j["vendor"], j["product"]) == (SONY, DUALSENSE) and j["gamecontroller"]]
    assert len(ps5) == 1, f"SDL {header['sdl']} joysticks: {joysticks}"
    assert ps5[0].get("type") == SDL_CONTROLLER_TYPE_PS5, f"SDL {header['sdl']} controller type: {ps5[0]}"
    return ps5[0]


def check_hidapi(rig, build: str, devices: tuple[dict, list[dict]], result: dict) -> None:
    """An SDL at its defaults (`devices` as listed, `result` from `sdl_probe sensors` on it)
    opened the pad with its HIDAPI driver, through hidraw, with a gyro, an accelerometer and
    one touchpad, read every pose and nothing else, and had the finger down where the
    controller put it, then up."""
    header, joysticks = devices
    controller = ps5_controller(header, joysticks)
    sdl = f"SDL {header['sdl']} ({build}, defaults)"
    assert str(controller.get("path", "")).startswith("/dev/hidraw") \
        and controller["guid"][GUID_DRIVER] == HIDAPI_GUID_DRIVER, f"{sdl} opened {controller}"

    # The driver adds the sensors and the touchpad once it has read a full report (at once when
    # one comes within its first 16 ms read): the sampling probe waits for them, as a game
    # that keeps its controller open sees them; the listing above saw what was there at once.
    assert result.get("sensors") and result.get("sdl") == header["sdl"], f"{sdl}: no controller with sensors: {result}"
    assert str(result.get("path", "")).startswith("/dev/hidraw") and result.get("guid") == controller["guid"] \
        and result.get("type") == SDL_CONTROLLER_TYPE_PS5 and result.get("touchpads") == 1, f"{sdl}: sampled {result}"
    readings = result["readings"]
    seen_a, seen_b = (count_pose(readings, pose) for pose in (MOTION_A, MOTION_B))
    assert seen_a and seen_b, f"{sdl}: poses A {seen_a} and B {seen_b} times in {readings}"
    strays = [r for r in readings if not any(matches(r, pose) for pose in (MOTION_A, MOTION_B) + OTHER_POSES)]
    assert not strays, f"{sdl}: readings that are no pose of the controller's: {strays}"

    fingers = result["fingers"]
    down = [i for i, (state, x, y) in enumerate(fingers) if state]
    assert down, f"{sdl}: the finger never went down: {fingers}"
    where = [(x, y) for state, x, y in fingers if state]
    assert all(abs(x - SDL_FINGER[0]) < 1e-4 and abs(y - SDL_FINGER[1]) < 1e-4 for x, y in where), \
        f"{sdl}: finger at {where}, expected {SDL_FINGER}"
    assert any(not state for state, _, _ in fingers[down[-1]:]), f"{sdl}: the finger never lifted: {fingers}"
    rig.figure(f"{sdl}: through HIDAPI {controller['path']}, GUID {controller['guid']}; gyro, accelerometer and "
               f"touchpad {result['sensors_after_ms']} ms after opening (listing, at once: gyro {controller.get('gyro')}, "
               f"touchpads {controller.get('touchpads')}); {len(readings)} distinct samples, pose A {seen_a} times, "
               f"B {seen_b} times, all within 2 % of the controller's; finger down at ({where[0][0]:.4f}, "
               f"{where[0][1]:.4f}), then up")


def pose_in_sdl_units(pose) -> list[float]:
    """A pose in SDL's units: gyro in rad/s, then acceleration in m/s^2."""
    gyro, accel = pose
    return [raw * GYRO_DEG_PER_COUNT * math.pi / 180 for raw in gyro] + [raw * ACCEL_MS2_PER_COUNT for raw in accel]


def matches(reading: list[float], pose) -> bool:
    """Each of SDL's six values within 2 % of the pose's (and 0.001 of a zero)."""
    return all(abs(got - want) <= 0.02 * abs(want) + 1e-3 for got, want in zip(reading, pose_in_sdl_units(pose)))


def count_pose(readings: list[list[float]], pose) -> int:
    return sum(1 for reading in readings if matches(reading, pose))


class SensorProbe:
    """An SDL program (`sdl_probe sensors` or clients/sdl_evdev_probe.py) that opens the pad,
    enables its sensors, says it is ready, and samples them until its standard input closes;
    with `library`, on that SDL 2 library (SDL_DYNAMIC_API)."""

    def __init__(self, rig, label: str, command: list[str], library: str | None = None):
        self.rig, self.label = rig, label
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env=sdl_environment(True, library))

    def wait_ready(self, timeout: float = 120.0) -> None:
        line = wait_line(self.process, timeout)
        assert line and json.loads(line).get("ready"), f"{self.label} did not get ready: {line!r}"

    def finish(self) -> dict:
        try:
            out, err = self.process.communicate(input="", timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, err = self.process.communicate()
        with open(os.path.join(self.rig.logs, "sdl-probe.log"), "a") as log:
            log.write(f"--- {self.label} -> {self.process.returncode}\n{out}{err}")
        lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        return lines[-1] if lines else {}


def wait_line(process: subprocess.Popen, timeout: float) -> str:
    """The next line of the process's output, or "" when it closes it or `timeout` passes."""
    readable, _, _ = select.select([process.stdout], [], [], timeout)
    return process.stdout.readline() if readable else ""
