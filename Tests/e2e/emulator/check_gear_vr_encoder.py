"""The emulated Gear VR's packet encoder against the bridge's decoder:
packets with every field set, through `daydream-bridge decode --controller
gear-vr HEX...`; a command echo and a short packet among them are errors on
stderr while the rest are still decoded, and the exit status is 1."""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gear_vr_packet import NOT_TOUCHING, TOUCHING, JUST_LIFTED, GearVRPacket, Sample  # noqa: E402


def packets() -> list[GearVRPacket]:
    generator = random.Random(44)
    made = []
    for index in range(16):
        def triple():
            return tuple(generator.randrange(-32768, 32768) for _ in range(3))
        time_us = generator.randrange(1 << 32)
        samples = [Sample((time_us + step * 4855) % (1 << 32), triple(), triple()) for step in range(3)]
        state = (TOUCHING, NOT_TOUCHING, JUST_LIFTED)[index % 3]
        made.append(GearVRPacket(
            samples=samples, magnetometer=triple(),
            touch_x=generator.randrange(0, 1024), touch_y=generator.randrange(0, 1024), touch_state=state,
            temperature=generator.randrange(256), buttons=generator.randrange(64), idle=bool(index % 2),
            battery=generator.randrange(101)))
    return made


def expected_raw(packet: GearVRPacket) -> dict:
    return {
        "samples": [{"time": s.time_us, "acceleration": list(s.acceleration), "gyro": list(s.gyro)}
                    for s in packet.samples],
        "magnetometer": list(packet.magnetometer),
        "touch": [packet.touch_x, packet.touch_y],
        "touching": packet.touch_state == TOUCHING,
        "buttons": packet.buttons,
        "temperature": packet.temperature,
        "battery": packet.battery,
    }


def main() -> int:
    bridge = sys.argv[1]
    made = packets()
    failures = 0
    for packet in made:
        if GearVRPacket.decode(packet.encode()) != packet:
            print(f"gear vr encoder: {packet.encode().hex()} does not round-trip")
            failures += 1
    # An echo and a short packet in the middle: errors, the rest decoded.
    arguments = [p.encode().hex() for p in made[:8]] + ["0800", made[0].encode().hex()[:-2]] \
        + [p.encode().hex() for p in made[8:]]
    result = subprocess.run([bridge, "decode", "--controller", "gear-vr", *arguments],
                            capture_output=True, text=True)
    objects = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    if result.returncode != 1 or len(result.stderr.strip().splitlines()) < 2:
        print(f"gear vr decode: an echo and a short packet gave exit {result.returncode} and stderr "
              f"{result.stderr!r}; expected exit 1 and an error for each")
        failures += 1
    if len(objects) != len(made):
        print(f"gear vr decode: {len(objects)} objects for {len(made)} packets:\n{result.stdout}")
        return 1
    for packet, decoded in zip(made, objects):
        raw = decoded.get("raw")
        if raw != expected_raw(packet):
            print(f"gear vr encoder: {packet.encode().hex()} decodes as {raw}, expected {expected_raw(packet)}")
            failures += 1
    print(f"gear vr encoder: {len(made) - failures} of {len(made)} packets agree with "
          f"daydream-bridge decode --controller gear-vr")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
