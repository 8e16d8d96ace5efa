"""Renders a timeline as a Gear VR recording in the bridge's format: the packets the
emulated Gear VR would send for it at 68 a second (three IMU samples each, microsecond
times), with idle packets before and after, framed by `connected` and `disconnected`.

    gear_vr_recording.py TIMELINE [--lead-in-ms 300] [--tail-ms 300] > FILE.recording
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gear_vr_packet import (  # noqa: E402
    AT_REST_ACCELERATION,
    JUST_LIFTED,
    MAGNETOMETER,
    NOT_TOUCHING,
    SAMPLES,
    TEMPERATURE,
    TOUCHING,
    VOCABULARY,
    GearVRPacket,
    Sample,
)
from timeline import Recording, State, Timeline  # noqa: E402

RATE = 68.0
ADDRESS = "C0:6E:A5:00:00:01"
BATTERY = 80


def render(timeline: Timeline, lead_in_ms: float, tail_ms: float) -> str:
    lines = [f"{Recording.HEADER}1", f"address {ADDRESS}", "name Gear VR Controller(0001)", "family gear-vr",
             "manufacturer Samsung", "model ET-YO324", f"battery {BATTERY}",
             "source emulator: Tests/e2e/emulator/gear_vr_recording.py",
             "# time (s) and packet (60 bytes in hex), or connected, disconnected, battery PERCENT",
             "0.000000 connected"]
    period_ms = 1000.0 / RATE
    sample_us = 1e6 / (RATE * SAMPLES)
    initial = State(acceleration=AT_REST_ACCELERATION)
    total = lead_in_ms + timeline.end_ms + tail_ms
    was_touching = False
    tick = 0
    while tick * period_ms <= total:
        at = tick * period_ms
        state = timeline.state_at(at - lead_in_ms, initial) if at >= lead_in_ms else initial
        touching = state.touch != (0, 0)
        touch_state = TOUCHING if touching else (JUST_LIFTED if was_touching else NOT_TOUCHING)
        was_touching = touching
        first_us = 1_000_000 + tick * SAMPLES * sample_us  # the controller's clock runs since it woke
        samples = [Sample(round(first_us + index * sample_us), state.acceleration, state.gyro) for index in range(SAMPLES)]
        x, y = state.touch if touching else (0, 0)
        packet = GearVRPacket(
            samples=samples, magnetometer=MAGNETOMETER if at >= 1000 else (0, 0, 0), touch_x=x, touch_y=y,
            touch_state=touch_state, temperature=TEMPERATURE, buttons=state.buttons,
            idle=not state.buttons and not touching, battery=BATTERY)
        lines.append(f"{(at + 20) / 1000:.6f} {packet.encode().hex().upper()}")
        tick += 1
    lines.append(f"{(total + 40) / 1000:.6f} disconnected")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("timeline")
    parser.add_argument("--lead-in-ms", type=float, default=300)
    parser.add_argument("--tail-ms", type=float, default=300)
    args = parser.parse_args()
    with open(args.timeline, encoding="utf-8") as file:
        timeline = Timeline.parse(file.read(), args.timeline, VOCABULARY)
    sys.stdout.write(render(timeline, args.lead_in_ms, args.tail_ms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
