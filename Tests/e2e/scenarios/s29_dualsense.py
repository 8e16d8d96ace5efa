"""identity = "dualsense": the gamepad as a virtual DualSense over /dev/uhid.
The kernel's hid-playstation binds it and makes its three nodes and a battery;
evdev reads back exactly what the controller did; SDL 2.26 sees a PS5
controller. SDL's gyro, accelerometer and touchpad are reported as figures and
their values checked where SDL has them (not met yet: issue 17)."""
from __future__ import annotations

import glob
import math
import os
import subprocess
import sys
import threading
import time

from evdev import ecodes

from bridge_helpers import ensure_paired, play_and_read, start_bridge, unpair, wait_streaming
from clients import sdl_devices, sdl_environment, sdl_probe
from input_devices import InputDevice, list_devices
from rig import scenario

NAME, ADDRESS = "dualsense", "C0:DD:EE:00:00:29"
# The controller's address with the locally administered bit flipped, as the kernel prints it.
UNIQ = "c2:dd:ee:00:00:29"
PAD = "Daydream Controller DualSense"
SONY, DUALSENSE = 0x054C, 0x0CE6
SDL_CONTROLLER_TYPE_PS5 = 7

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

# The Daydream packet's units (DaydreamProtocol's Units.swift) and the DualSense's.
GYRO_DEG_PER_COUNT = 2048.0 / 4095.0
ACCEL_MS2_PER_COUNT = 8.0 * 9.8 / 4095.0
G = 9.80665


def dualsense_gyro(raw: int) -> int:
    """What hid-playstation reports on ABS_RX/RY/RZ: 16 counts per deg/s in, times 64."""
    return round(raw * GYRO_DEG_PER_COUNT * 16) * 64


def dualsense_accel(raw: int) -> int:
    """What it reports on ABS_X/Y/Z: 8192 per g, as sent."""
    return round(raw * ACCEL_MS2_PER_COUNT / G * 8192)


def modprobe(module: str) -> None:
    result = subprocess.run(["modprobe", module], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"modprobe {module}: {result.stderr.strip()}"


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
    exactly, and which SDL 2.26 sees as a PS5 controller; its sensors are a figure for now."""
    modprobe("uhid")
    modprobe("hid-playstation")
    rig.controller(NAME, ADDRESS)
    ensure_paired(rig, NAME, ADDRESS)
    mark = rig.emulator.mark()
    bridge = start_bridge(rig, CONFIG)
    wait_streaming(rig, NAME, since=mark)
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

        sdl_result: dict = {}
        evdev_result: dict = {}

        def probe_both() -> None:
            sdl_result.update(read_sdl_sensors(rig))
            evdev_result.update(read_newer_sdl_sensors(rig))
        probe = threading.Thread(target=probe_both)
        started = threading.Timer(1.6, probe.start)  # once the timeline's motion is held
        started.start()
        _, frames = play_and_read(rig, NAME, "dualsense", list(nodes.values()))
        started.join()
        probe.join(timeout=30)

        pad_events = [event for frame in frames[nodes["pad"]] for event in frame.events]
        assert "BTN_SOUTH 1" in pad_events and "BTN_SOUTH 0" in pad_events, f"pad: {frames[nodes['pad']]}"
        assert pad_events.index("BTN_SOUTH 1") < pad_events.index("BTN_SOUTH 0")

        touch = [event for frame in frames[nodes["touchpad"]] for event in frame.events]
        assert "ABS_MT_POSITION_X 1919" in touch, f"touchpad: {frames[nodes['touchpad']]}"
        assert f"ABS_MT_POSITION_Y {round(128 / 255 * 1079)}" in touch, f"touchpad: {frames[nodes['touchpad']]}"
        assert "BTN_TOUCH 1" in touch and "BTN_TOUCH 0" in touch, f"touchpad: {frames[nodes['touchpad']]}"

        last = {}
        for frame in frames[nodes["motion"]]:
            for type_, code, value in frame.raw:
                if type_ == ecodes.EV_ABS:
                    last[code] = value
        expected = {
            ecodes.ABS_RX: dualsense_gyro(400), ecodes.ABS_RY: dualsense_gyro(-200), ecodes.ABS_RZ: dualsense_gyro(100),
            ecodes.ABS_X: dualsense_accel(256), ecodes.ABS_Y: dualsense_accel(-512), ecodes.ABS_Z: dualsense_accel(128),
        }
        assert {code: last.get(code) for code in expected} == expected, f"motion: last {last}, expected {expected}"

        header, joysticks = sdl_devices(rig, label="dualsense")
        ps5 = [j for j in joysticks if (j["vendor"], j["product"]) == (SONY, DUALSENSE) and j["gamecontroller"]]
        assert len(ps5) == 1, f"SDL {header['sdl']} joysticks: {joysticks}"
        controller = ps5[0]
        assert controller.get("type") == SDL_CONTROLLER_TYPE_PS5, f"SDL controller type: {controller}"
        gyro_rad = [raw * GYRO_DEG_PER_COUNT * math.pi / 180 for raw in (400, -200, 100)]
        accel_ms2 = [raw * ACCEL_MS2_PER_COUNT for raw in (256, -512, 128)]
        # Not met yet (issue 17 stays open): SDL 2.26 opens this pad through evdev, not its
        # HIDAPI driver, and a newer SDL with SDL_JOYSTICK_HIDAPI=0 pairs no sensors with it.
        # What SDL sees is a figure; where it does see sensors, their values are checked.
        if controller.get("gyro") and controller.get("accel") and sdl_result.get("sensors"):
            check_sensors(f"SDL {header['sdl']}", sdl_result, gyro_rad + accel_ms2)
            rig.figure(f"SDL {header['sdl']}: gyro {sdl_result['gyro']}, accel {sdl_result['accel']}, "
                       f"touchpads {controller.get('touchpads')}")
        else:
            rig.figure(f"SDL {header['sdl']}: a PS5 controller through {controller.get('path')}, without sensors "
                       f"(gyro {controller.get('gyro')}, accel {controller.get('accel')}, "
                       f"touchpads {controller.get('touchpads')}): not met yet")
        # The newer SDL through evdev pairs the sensors in some runs and not in others, and then
        # read zeros where the controller turned: a figure until that is understood (issue 17).
        rig.figure(f"SDL {evdev_result.get('sdl')} with SDL_JOYSTICK_HIDAPI=0: sensors {evdev_result.get('sensors')}, "
                   f"gyro {evdev_result.get('gyro')}, accel {evdev_result.get('accel')} "
                   f"(the controller sent {[round(v, 3) for v in gyro_rad + accel_ms2]}): not met yet")
    finally:
        for node in nodes.values():
            node.close()
    assert bridge.alive(), "the bridge died"
    unpair(rig, NAME, ADDRESS)


def check_sensors(who: str, result: dict, expected: list[float]) -> None:
    """Each of SDL's gyro then accelerometer values within 2 % of the emulated motion."""
    for axis, (got, want) in enumerate(zip(result["gyro"] + result["accel"], expected)):
        assert abs(got - want) <= 0.02 * abs(want), f"{who} sensor {axis}: {got}, expected {want} within 2 %"


def read_sdl_sensors(rig) -> dict:
    """`sdl_probe sensors 1500`: SDL's last gyro and accelerometer values."""
    import json
    result = subprocess.run([sdl_probe(rig), "sensors", "1500"], capture_output=True, text=True, timeout=60,
                            env=sdl_environment(True), stdin=subprocess.DEVNULL)
    with open(os.path.join(rig.logs, "sdl-probe.log"), "a") as log:
        log.write(f"--- sdl_probe sensors -> {result.returncode}\n{result.stdout}{result.stderr}")
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return lines[0] if lines else {}


def read_newer_sdl_sensors(rig) -> dict:
    """clients/sdl_evdev_probe.py 1500 under the venv's SDL (pysdl2-dll), through evdev."""
    import json
    script = os.path.join(rig.e2e, "clients", "sdl_evdev_probe.py")
    result = subprocess.run([sys.executable, script, "1500"], capture_output=True, text=True, timeout=60,
                            env=sdl_environment(True), stdin=subprocess.DEVNULL)
    with open(os.path.join(rig.logs, "sdl-probe.log"), "a") as log:
        log.write(f"--- sdl_evdev_probe -> {result.returncode}\n{result.stdout}{result.stderr}")
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return lines[0] if lines else {}
