"""A Gear VR's motion through the bridge: gyro aiming, the DSU server and the DualSense,
with all three IMU samples of each packet (about 204 a second at 68 packets).

The Gear VR's axes are not the Daydream's (controllers.md): +X right, +Y toward the trigger
end, +Z out of the touchpad face; the Daydream's are x right, y out of the pad, z toward the
player. So a Gear VR turned right about its up axis reports a negative rate about its Z, and
the bridge's common frame is (x, z, -y) of the Gear VR's counts; 14.285 counts per deg/s and
2048 per g."""
from __future__ import annotations

import socket
import struct
import time

from evdev import ecodes

from bridge_helpers import GAMEPAD, stick_axis, wait_streaming
from dsu_client import DATA, DSU_PORT, Client
from gear_vr import (
    ACCELEROMETER_COUNTS_PER_G,
    GEAR,
    GEAR_ADDRESS,
    GYRO_COUNTS_PER_DEGREE_PER_SECOND,
    PACKET_RATE,
    SAMPLES_PER_PACKET,
    gear_vr,
    start_order,
)
from bridge_helpers import ensure_paired, start_bridge
from input_devices import FrameRecorder, InputDevice, list_devices, wait_for_device
from processes import modprobe
from rig import scenario
from waiting import wait_until


def common_frame(vector: tuple[int, int, int]) -> tuple[int, int, int]:
    """A Gear VR vector on the Daydream's axes, which every consumer after the decoder uses."""
    x, y, z = vector
    return x, z, -y


def degrees(count: int) -> float:
    return count / GYRO_COUNTS_PER_DEGREE_PER_SECOND


def start(rig, config: str) -> None:
    gear_vr(rig)
    ensure_paired(rig, GEAR, GEAR_ADDRESS)
    mark = rig.emulator.mark()
    start_bridge(rig, config)
    wait_streaming(rig, GEAR, since=mark)
    start_order(rig, GEAR, since=mark)


# Raw Gear VR counts about its Z (up): negative turns right. About X: positive tips the tip up.
SLOW, FAST, PITCH = -714, -2143, 1428  # 50, 150 deg/s to the right; 100 deg/s up
TURNS = f"""
at 300ms   gyro 0 0 {SLOW}
at 800ms   gyro 0 0 {FAST}
at 1300ms  gyro 0 0 0
at 1600ms  gyro {PITCH} 0 0
at 2100ms  gyro 0 0 0
at 2400ms  end
"""
STICK_CONFIG = """
[bridge]
profile = "gyro-stick"

[profile.gyro-stick]
gyro = { output = "right-stick" }
click = "BTN_SOUTH"
"""
STICK_SPEED = 360.0


def changes(values: list[int]) -> list[int]:
    out: list[int] = []
    for value in values:
        if (out and out[-1] == value) or (not out and value == 0):
            continue
        out.append(value)
    return out


def close_to(got: list[int], want: list[int]) -> bool:
    return len(got) == len(want) and all(abs(g - w) <= 1 for g, w in zip(got, want))


@scenario("gear vr: gyro aiming to the right stick follows the turn on the right axes", needs=("run",))
def gear_vr_gyro_stick(rig):
    """gyro = { output = "right-stick" }: the Gear VR turned right at 50 then 150 deg/s (about
    its own Z) deflects the right stick right by 50/360 then 150/360, held still it centres,
    tipped up at 100 deg/s (about its X) the stick goes up; nothing else moves."""
    start(rig, STICK_CONFIG)
    pad = wait_for_device(lambda n: n == GAMEPAD, timeout=30)
    expected = {"ABS_RX": [stick_axis(-degrees(SLOW) / STICK_SPEED), stick_axis(-degrees(FAST) / STICK_SPEED), 0],
                "ABS_RY": [stick_axis(-degrees(PITCH) / STICK_SPEED), 0]}
    recorder = FrameRecorder([pad])
    try:
        mark = rig.emulator.mark()
        length = rig.play(GEAR, TURNS)
        rig.emulator.wait_event("play_finished", GEAR, since=mark, timeout=length + 30)

        def written() -> dict[str, list[int]]:
            events = [e.split() for _, f in recorder.frames() for e in f.events]
            return {axis: changes([int(v) for code, v in events if code == axis]) for axis in expected}
        wait_until(lambda: close_to(written()["ABS_RY"], expected["ABS_RY"]), timeout=5)
    finally:
        frames = [frame for _, frame in recorder.stop()]
    events = [e.split() for f in frames for e in f.events]
    got = {axis: changes([int(v) for code, v in events if code == axis]) for axis in expected}
    for axis in expected:
        assert close_to(got[axis], expected[axis]), f"{axis} went {got[axis]}, expected {expected[axis]} (within 1)"
    others = [" ".join(e) for e in events if e[0] not in expected]
    assert not others, f"turning the gear vr wrote {others} on the gamepad"
    rig.figure(f"gear vr gyro to right stick: ABS_RX {got['ABS_RX']}, ABS_RY {got['ABS_RY']}")


DSU_CONFIG = f"""
[dsu]
listen = "127.0.0.1:{DSU_PORT}"

[profile.pad]
click = "BTN_SOUTH"
"""
GYRO, ACCEL = (700, -350, 280), (200, -300, 1900)
MOTION = f"""
at 0ms     gyro 0 0 0
at 500ms   gyro {GYRO[0]} {GYRO[1]} {GYRO[2]}
at 500ms   accel {ACCEL[0]} {ACCEL[1]} {ACCEL[2]}
at 2500ms  end
"""


def pad_data(body: bytes) -> dict:
    (packet,) = struct.unpack_from("<I", body, 12)
    (timestamp,) = struct.unpack_from("<Q", body, 48)
    return {"slot": body[0], "connected": body[11], "packet": packet, "timestamp": timestamp,
            "accel": struct.unpack_from("<3f", body, 56), "gyro": struct.unpack_from("<3f", body, 68)}


@scenario("gear vr: DSU gets every IMU sample (three a packet) in deg/s and g on the right axes", needs=("run",))
def gear_vr_dsu(rig):
    """[dsu] on 127.0.0.1:26760 with a Gear VR: pad data for each of the three samples of
    every packet (about 3 x 68 a second, never fewer than 2.5 per packet the emulator sent),
    timestamps increasing by the samples' own microsecond steps, the gyro in deg/s and the
    acceleration in g (negated) on the common axes (x, z, -y of the Gear VR's)."""
    start(rig, DSU_CONFIG)
    client = Client()
    # Room for every datagram of the run (about 600, each about 1 KiB in the kernel's count).
    client.socket.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_RCVBUFFORCE", 33), 4 << 20)
    try:
        # Until its requests have run for a second the bridge sends a client no more bytes than
        # it sent (a ping now and then), then every sample: wait for that, as s36 does.
        client.subscribe_all()
        flowing = []

        def streaming() -> bool:
            client.renew_if_due()
            flowing.append(client.receive(DATA, timeout=0.25) is not None)
            return flowing[-3:] == [True] * 3
        assert wait_until(streaming, timeout=10), "pad data never came at the packet rate with the client renewing"
        before = rig.emulator_state(GEAR)["packets_sent"]
        mark = rig.emulator.mark()
        length = rig.play(GEAR, MOTION)
        rig.emulator.wait_event("play_started", GEAR, since=mark, timeout=5)
        # Read while the motion plays, doing nothing else (the guest's Python is slow beside
        # 204 datagrams a second: they wait in the socket's buffer), then stall the stream so
        # the packets sent are counted once, and read what is still queued.
        bodies = []
        end = time.monotonic() + length
        while time.monotonic() < end:
            client.renew_if_due()
            body = client.receive(DATA, timeout=1.0)
            if body is None:
                break
            bodies.append(body)
        rig.emulator.request("stall", name=GEAR)
        sent = rig.emulator_state(GEAR)["packets_sent"] - before
        while len(bodies) < 3 * sent:
            body = client.receive(DATA, timeout=1.0)
            if body is None:
                break
            bodies.append(body)
        samples = [pad_data(body) for body in bodies]
    finally:
        client.close()
    pads = samples
    # The emulator's rate is the guest's (68 a second on a quick one, fewer under software
    # emulation): what the bridge must do is three messages a packet, whatever the rate.
    assert sent >= 60, f"the emulated Gear VR sent {sent} packets while {length} s of motion played"
    assert len(pads) >= 2.5 * (sent - 20), f"{len(pads)} pad-data messages for {sent} packets: not three samples each"
    stamps = [p["timestamp"] for p in pads]
    steps = [b - a for a, b in zip(stamps, stamps[1:])]
    assert all(step > 0 for step in steps), f"timestamps not increasing: {steps[:20]}"
    sample_us = 1e6 / (PACKET_RATE * SAMPLES_PER_PACKET)
    typical = sorted(steps)[len(steps) // 2]
    assert abs(typical - sample_us) < 0.2 * sample_us, f"median timestamp step {typical} us, samples are {sample_us:.0f} us apart"
    gyro = tuple(degrees(v) for v in common_frame(GYRO))
    want_gyro = (gyro[0], -gyro[1], -gyro[2])  # DSU: pitch x, yaw -y, roll -z (as the Daydream's)
    want_accel = tuple(-v / ACCELEROMETER_COUNTS_PER_G for v in common_frame(ACCEL))

    def close(got, want) -> bool:
        return all(abs(g - w) <= 1e-3 * max(1.0, abs(w)) for g, w in zip(got, want))
    moving = [p for p in pads if close(p["gyro"], want_gyro)]
    assert moving, f"no pad data with the rate {want_gyro} deg/s; last {pads[-1]['gyro']}"
    assert all(close(p["accel"], want_accel) for p in moving), f"acceleration {moving[0]['accel']}, expected {want_accel}"
    span = (stamps[-1] - stamps[0]) / 1e6
    rig.figure(f"gear vr DSU: {len(pads)} pad-data messages over {span:.1f} s of samples ({len(pads) / span:.0f}/s) "
               f"for {sent} packets; median timestamp step {typical} us")


DUALSENSE_CONFIG = """
[gamepad]
identity = "dualsense"

[bridge]
profile = "pad"

[profile.pad]
click = "BTN_SOUTH"
trigger = "BTN_TR2"
back = "BTN_SELECT"
touchpad = { mode = "none" }
"""
PAD = "Daydream Controller DualSense"
POSE = ((700, -350, 280), (200, -300, 1900))
DUALSENSE_TIMELINE = f"""
at 0ms     tap trigger 150ms
at 400ms   tap back 150ms
at 800ms   gyro {POSE[0][0]} {POSE[0][1]} {POSE[0][2]}
at 800ms   accel {POSE[1][0]} {POSE[1][1]} {POSE[1][2]}
at 1400ms  end
"""


def wait_nodes(timeout: float = 30.0) -> dict[str, InputDevice]:
    names = {"pad": PAD, "motion": f"{PAD} Motion Sensors"}
    deadline = time.monotonic() + timeout
    while True:
        present = list_devices()
        found = {role: path for role, name in names.items() for path, n in present.items() if n == name}
        if len(found) == len(names):
            return {role: InputDevice(path) for role, path in found.items()}
        assert time.monotonic() < deadline, f"hid-playstation made {sorted(found)} within {timeout:.0f} s"
        time.sleep(0.2)


@scenario("gear vr: the DualSense (hid-playstation): trigger and back, the motion node on the right axes",
          needs=("run",))
def gear_vr_dualsense(rig):
    """identity = "dualsense" with a Gear VR: trigger and back bound to R2 and Create reach
    hid-playstation's pad node; its motion node ends at the Gear VR's pose in the common frame
    (16 counts a deg/s times 64, 8192 a g)."""
    modprobe("uhid")
    modprobe("hid-playstation")
    start(rig, DUALSENSE_CONFIG)
    nodes = wait_nodes()
    gyro = common_frame(POSE[0])
    accel = common_frame(POSE[1])
    expected = {
        ecodes.ABS_RX: round(degrees(gyro[0]) * 16) * 64, ecodes.ABS_RY: round(degrees(gyro[1]) * 16) * 64,
        ecodes.ABS_RZ: round(degrees(gyro[2]) * 16) * 64,
        ecodes.ABS_X: round(accel[0] / ACCELEROMETER_COUNTS_PER_G * 8192),
        ecodes.ABS_Y: round(accel[1] / ACCELEROMETER_COUNTS_PER_G * 8192),
        ecodes.ABS_Z: round(accel[2] / ACCELEROMETER_COUNTS_PER_G * 8192),
    }

    def motion(recorded) -> dict[int, int | None]:
        last = {}
        for device, frame in recorded:
            if device is nodes["motion"]:
                for type_, code, value in frame.raw:
                    if type_ == ecodes.EV_ABS:
                        last[code] = value
        return {code: last.get(code) for code in expected}

    def at_pose(got) -> bool:
        return all(got[c] is not None and abs(got[c] - v) <= 64 for c, v in expected.items())

    recorder = FrameRecorder(list(nodes.values()))
    try:
        mark = rig.emulator.mark()
        length = rig.play(GEAR, DUALSENSE_TIMELINE)
        rig.emulator.wait_event("play_finished", GEAR, since=mark, timeout=length + 30)
        wait_until(lambda: at_pose(motion(recorder.frames())), timeout=5)
    finally:
        recorded = recorder.stop()
        for node in nodes.values():
            node.close()
    pad_events = [e for device, f in recorded if device is nodes["pad"] for e in f.events if e.startswith("BTN_")]
    for button in ("BTN_TR2", "BTN_SELECT"):
        assert f"{button} 1" in pad_events and f"{button} 0" in pad_events, f"pad buttons: {pad_events}"
    got = motion(recorded)
    assert at_pose(got), f"motion node: last {got}, expected {expected} (within one step)"
    rig.figure(f"gear vr DualSense motion node: {got}")
