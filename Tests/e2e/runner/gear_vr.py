"""What the Gear VR scenarios share: the emulated controller, its scales
(controllers.md), and checks of how the bridge started its stream."""
from __future__ import annotations

import math

from bridge_helpers import stick_axis
from rig import Rig

GEAR, GEAR_ADDRESS = "gear", "C0:6E:A5:00:00:01"
GEAR_NAME = "Gear VR Controller(0001)"
DATA_SERVICE = "4f63756c-7573-2054-6872-65656d6f7465"
NOTIFY_UUID = "c8c51726-81bc-483b-a052-f7a14ea3d281"
PACKET_SIZE = 60

TOUCH_MAX = 315  # the round pad's counts; the bridge clamps larger ones
GYRO_COUNTS_PER_DEGREE_PER_SECOND = 14.285
ACCELEROMETER_COUNTS_PER_G = 2048
SAMPLES_PER_PACKET = 3
PACKET_RATE = 68


def gear_vr(rig: Rig, **options) -> str:
    """The emulated Gear VR (made once, powered on here)."""
    return rig.controller(GEAR, GEAR_ADDRESS, family="gear-vr", **options)


def gear_stick(touch_x: int, touch_y: int, deadzone: float = 0.1, saturation: float = 0.9,
               shape: str = "circle") -> tuple[int, int]:
    """ABS_X, ABS_Y for a finger at raw Gear VR counts (0...315) in `mode = "stick"`,
    by the config's documented geometry (centre 0.5, radius 0.5)."""
    x = (min(touch_x, TOUCH_MAX) / TOUCH_MAX - 0.5) * 2
    y = (min(touch_y, TOUCH_MAX) / TOUCH_MAX - 0.5) * 2
    if shape == "square":
        return stick_axis(x), stick_axis(y)
    radius = math.sqrt(x * x + y * y)
    if radius <= deadzone:
        return 0, 0
    magnitude = min(1.0, (radius - deadzone) / max(saturation - deadzone, 1e-6))
    return stick_axis(x / radius * magnitude), stick_axis(y / radius * magnitude)


def start_order(rig: Rig, name: str, since: int) -> list[str]:
    """The commands the bridge wrote and the echoes the controller sent since `since`,
    in order ("write 0800", "echo 0800", ...), once the stream has started; fails
    when the bridge wrote `0100` before the `08 00` echo or anything but the four
    verified commands."""
    event = rig.emulator.wait_event("stream", name, since=since, timeout=60, on=True)
    rig.emulator.poll()
    order = []
    for message in rig.emulator.events[since:]:
        if message["name"] != name:
            continue
        if message["event"] == "command":
            order.append(f"write {message['value']}")
        elif message["event"] == "echo":
            order.append(f"echo {message['value']}")
        elif message["event"] in ("early_start", "forbidden_command"):
            raise AssertionError(f"{name}: {message['event']} ({order}): the start order is 0800, its echo, 0100")
        if message is event:
            break
    assert order[-3:] == ["write 0800", "echo 0800", "write 0100"], \
        f"{name}: the bridge started the stream with {order}; expected 0800, the 08 00 echo, then 0100"
    return order
