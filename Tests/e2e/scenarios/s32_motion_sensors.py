"""The motion-sensor device (motion-sensors = true): the kernel's accelerometer
convention as real udev, joydev and libinput see it, and the motion itself,
read back against what the emulated controller sends."""
from __future__ import annotations

import math
import os

from evdev import ecodes

from bridge_helpers import ensure_paired, start_bridge, wait_streaming
from input_devices import Frame, FrameRecorder, InputDevice, udev_properties_of, wait_for_device
from libinput_cli import libinput_devices
from rig import scenario
from udev_rules import DEVICE_RULES, installed_rules, udev_tags, udevadm
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
MOTION = "Daydream Controller Motion Sensors"
CONFIG = """
[profile.emulator]
motion-sensors = true
click = "BTN_SOUTH"
"""
UNITS_PER_G, UNITS_PER_DEG_S = 8192, 1024
# protocol.md's scaling: 8 g and 2048 deg/s per 4095 counts.
G_PER_COUNT, DEG_S_PER_COUNT = 8 / 4095, 2048 / 4095
AT_REST = (0, 520, 11)  # the emulator's counts, a real capture flat on a table: 1.016 g
TURN_LEFT = (0, 400, 0)  # 200.05 deg/s about y
TIP_AND_ROLL = (-300, 0, 150)  # -150.04 deg/s about x, 75.02 about z
TIMELINE = f"""rate 60
at 0ms     accel {AT_REST[0]} {AT_REST[1]} {AT_REST[2]}
at 0ms     gyro 0 0 0
at 1000ms  gyro {TURN_LEFT[0]} {TURN_LEFT[1]} {TURN_LEFT[2]}
at 2000ms  gyro {TIP_AND_ROLL[0]} {TIP_AND_ROLL[1]} {TIP_AND_ROLL[2]}
at 3000ms  gyro 0 0 0
at 3500ms  end
"""
# Each plateau is judged from 150 ms after its change to 150 ms before the next one,
# well clear of the link's latency (p99 under 10 ms on this rig).
PLATEAUS = [(150, 850, (0, 0, 0)), (1150, 1850, TURN_LEFT), (2150, 2850, TIP_AND_ROLL)]
ACCELERATION = [ecodes.ABS_X, ecodes.ABS_Y, ecodes.ABS_Z]
ANGULAR_RATE = [ecodes.ABS_RX, ecodes.ABS_RY, ecodes.ABS_RZ]


def joydev_nodes(event_node: str) -> list[str]:
    """The joydev nodes (/dev/input/jsN) the kernel made for the same input device."""
    parent = os.path.realpath(f"/sys/class/input/{os.path.basename(event_node)}/device")
    return sorted(f"/dev/input/{entry}" for entry in os.listdir(parent) if entry.startswith("js"))


def states(frames: list[Frame], start_ns: int, before: dict[str, int]) -> list[tuple[float, dict[str, int]]]:
    """(ms after the timeline's start, every axis and MSC_TIMESTAMP as of that frame), per frame
    whose state is known, from the axes' values `before` the first. Axes are written only when
    they change, so each frame's state carries the earlier ones'. After the reader fell behind,
    the state starts again from the axes it read back (`Frame.resync`): the frames stamped
    before that read are left out, as the state at each of them is not known exactly."""
    state = dict(before)
    uncertain_until = 0
    result = []
    for frame in frames:
        if frame.resync is not None:
            state.update(frame.resync)
            uncertain_until = frame.resync_ns
        for event in frame.events:
            name, value = event.rsplit(" ", 1)
            state[name] = int(value)
        if frame.t_ns > uncertain_until:
            result.append(((frame.t_ns - start_ns) / 1e6, dict(state)))
    return result


def check_plateau(snapshots, low_ms: float, high_ms: float, counts: tuple[int, int, int]) -> int:
    """Every frame in [low, high] shows the angular rate the emulator sends, within 2 %
    (and 0.5 deg/s, one count, for an axis at rest); returns how many frames were judged."""
    judged = [state for t, state in snapshots if low_ms <= t <= high_ms]
    assert len(judged) >= 30, f"only {len(judged)} motion frames between {low_ms} and {high_ms} ms"
    for state in judged:
        for axis, count in zip(ANGULAR_RATE, counts):
            name = ecodes.ABS[axis]
            expected = count * DEG_S_PER_COUNT
            actual = state.get(name, 0) / UNITS_PER_DEG_S
            assert abs(actual - expected) <= max(0.02 * abs(expected), 0.5), \
                f"{name} reads {actual:.2f} deg/s, the emulator sends {expected:.2f} ({low_ms}-{high_ms} ms)"
        acceleration = [state.get(ecodes.ABS[axis], 0) / UNITS_PER_G for axis in ACCELERATION]
        magnitude = math.sqrt(sum(a * a for a in acceleration))
        assert abs(magnitude - 1) <= 0.02 and abs(acceleration[1] - 1) <= 0.02, \
            f"at rest the acceleration is {acceleration} g (|a| = {magnitude:.4f}), not 1 g on y within 2 %"
    return len(judged)


@scenario("motion sensors: accelerometer node (udev, joydev, libinput), gravity, rotation, timestamps",
          needs=("run",), udev=True)
def motion_sensors(rig):
    """motion-sensors = true makes "Daydream Controller Motion Sensors" (0006:da7d:0004,
    INPUT_PROP_ACCELEROMETER, 8192 per g, 1024 per deg/s): udev says ID_INPUT_ACCELEROMETER=1
    and, with the shipped rules, tags its event node uaccess; no joystick node of it reaches the
    seat user; libinput leaves it out. At rest |a| is 1 g within 2 % on y; the angular rate
    follows the emulated rotation within 2 %; MSC_TIMESTAMP increases and keeps real time."""
    ensure_paired(rig, NAME, ADDRESS)
    with open(os.path.join(rig.repo, "udev", DEVICE_RULES), encoding="utf-8") as file:
        shipped = file.read()
    with installed_rules({DEVICE_RULES: shipped}):
        mark = rig.emulator.mark()
        start_bridge(rig, CONFIG)
        motion = wait_for_device(lambda n: n == MOTION, timeout=30)
        motion.keep_misc = True
        try:
            wait_streaming(rig, NAME, since=mark)
            info = motion.device.info
            assert (info.bustype, info.vendor, info.product) == (0x06, 0xDA7D, 0x0004), f"motion device id: {info}"
            assert ecodes.INPUT_PROP_ACCELEROMETER in motion.device.input_props(), \
                f"no INPUT_PROP_ACCELEROMETER: {motion.device.input_props()}"
            capabilities = motion.device.capabilities(absinfo=True)
            axes = dict(capabilities.get(ecodes.EV_ABS, []))
            assert sorted(axes) == ACCELERATION + ANGULAR_RATE, f"motion axes: {sorted(axes)}"
            for axis in ACCELERATION:
                assert (axes[axis].min, axes[axis].max, axes[axis].resolution) == (-65536, 65536, UNITS_PER_G), axes[axis]
            for axis in ANGULAR_RATE:
                assert (axes[axis].min, axes[axis].max, axes[axis].resolution) == (-2097152, 2097152, UNITS_PER_DEG_S), \
                    axes[axis]
            assert capabilities.get(ecodes.EV_MSC) == [ecodes.MSC_TIMESTAMP], f"EV_MSC: {capabilities.get(ecodes.EV_MSC)}"
            assert ecodes.EV_KEY not in capabilities and ecodes.EV_REL not in capabilities, f"{capabilities}"

            properties = udev_properties_of([motion])[0]
            assert properties.get("ID_INPUT_ACCELEROMETER") == "1", f"udev: {properties}"
            for wrong in ("ID_INPUT_JOYSTICK", "ID_INPUT_MOUSE", "ID_INPUT_KEY", "ID_INPUT_TOUCHPAD"):
                assert wrong not in properties, f"the motion device is also {wrong}: {properties}"
            assert properties.get("DAYDREAM_BRIDGE_DEVICE") == "motion", f"{DEVICE_RULES} did not mark it: {properties}"
            assert "uaccess" in udev_tags(motion.path), f"{motion.path} is not tagged uaccess: {udev_tags(motion.path)}"
            # joydev binds any device with ABS_X (its blacklist names Sony's, THQ's and Nintendo's
            # ids only), so a js node may exist; it must be no joystick to udev and get no seat ACL.
            joysticks = joydev_nodes(motion.path)
            for node in joysticks:
                udev = udevadm("info", "--query=property", f"--name={node}")
                assert "ID_INPUT_JOYSTICK=1" not in udev, f"{node} of the motion device is a joystick to udev:\n{udev}"
                assert "uaccess" not in udev_tags(node), f"{node} of the motion device reaches the seat user"
            listed = libinput_devices()
            assert MOTION not in listed, f"libinput took the motion sensors: {listed}"

            # The node streams at the packet rate, and the checks above left its evdev buffer to
            # overflow: a fresh reader starts empty. The stream before the timeline is steady, so
            # the axes as the kernel holds them now are where the frames read next start from.
            # A thread reads the frames, so a slow VM drops none.
            motion.close()
            motion = InputDevice(motion.path)
            motion.keep_misc = True
            # Should this reader still fall behind the node's evdev buffer (about 8 frames), it
            # resynchronises as libevdev does, and the checks judge the frames it has.
            motion.resync_on_drop = True
            before = {ecodes.ABS[axis]: motion.device.absinfo(axis).value for axis in ACCELERATION + ANGULAR_RATE}
            recorder = FrameRecorder([motion])
            try:
                mark = rig.emulator.mark()
                length = rig.play(NAME, TIMELINE)
                start = rig.emulator.wait_event("play_started", NAME, since=mark, timeout=5)["t_ns"]
                end = rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=length + 30)["t_ns"]
                # Until the frames reach past the timeline's end (the bridge writes one a packet).
                assert wait_until(lambda: any(frame.t_ns > end for _, frame in recorder.frames()), timeout=10), \
                    "no motion frame after the timeline's end within 10 s"
            finally:
                frames = {motion: [frame for _, frame in recorder.stop()]}
        finally:
            motion.close()
    snapshots = states(frames[motion], start, before)
    judged = sum(check_plateau(snapshots, low, high, counts) for low, high, counts in PLATEAUS)

    stamps = [(frame.t_ns, int(event.rsplit(" ", 1)[1]) & 0xFFFFFFFF)
              for frame in frames[motion] for event in frame.events if event.startswith("MSC_TIMESTAMP ")]
    assert len(stamps) == len(frames[motion]) and len(stamps) > 150, \
        f"{len(stamps)} timestamps in {len(frames[motion])} motion frames"
    steps = [(later - earlier) & 0xFFFFFFFF for (_, earlier), (_, later) in zip(stamps, stamps[1:])]
    assert all(0 < step < 1 << 31 for step in steps), f"MSC_TIMESTAMP did not increase: steps {steps}"
    stamped_s = sum(steps) / 1e6
    kernel_s = (stamps[-1][0] - stamps[0][0]) / 1e9
    assert abs(stamped_s - kernel_s) <= 0.03 * kernel_s, \
        f"MSC_TIMESTAMP spans {stamped_s:.3f} s where the kernel's times span {kernel_s:.3f} s"
    rig.figure(f"motion sensors: {judged} frames within 2 % of the emulated motion; MSC_TIMESTAMP "
               f"{stamped_s:.3f} s over {kernel_s:.3f} s of kernel time ({len(stamps)} frames, "
               f"{motion.drops} reader drops); "
               f"joydev nodes of the motion device: {joysticks or 'none'} (no seat access)")
