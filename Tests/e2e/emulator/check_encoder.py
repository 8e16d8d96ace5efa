"""The emulator's encoder against the bridge's decoder: the real packets from
protocol.md, and random ones, through `daydream-bridge decode HEX`."""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from packet import Packet  # noqa: E402

REAL = {
    "5BEBFFB825FDB000041000B00000000000000000": Packet(183, 26, -3, -2011, -74, 0, 520, 11, 0, 0, 0, 0, 0, 0, 0),
    "480BFE87EB00E801841000B00000000191FBA008": Packet(144, 2, -12, 2027, 29, 6, 520, 11, 0, 0, 12, 143, 221, 0, 8),
    "26F80361C2002002C40FFE400000000000001011": Packet(77, 30, 27, 450, 4, 11, 519, -28, 0, 0, 0, 0, 0, 0x10, 0x11),
}


def main() -> int:
    bridge = sys.argv[1]
    failures = 0
    for hex_text, packet in REAL.items():
        if packet.encode().hex().upper() != hex_text or Packet.decode(bytes.fromhex(hex_text)) != packet:
            print(f"encoder: real packet {hex_text} does not round-trip")
            failures += 1
    generator = random.Random(6)
    packets = list(REAL.values())
    for _ in range(12):
        packets.append(Packet(
            generator.randrange(512), generator.randrange(32),
            *[generator.randrange(-4096, 4096) for _ in range(9)],
            generator.randrange(256), generator.randrange(256), generator.randrange(32), generator.randrange(256)))
    for packet in packets:
        output = subprocess.run([bridge, "decode", packet.encode().hex()], capture_output=True, text=True, check=True)
        raw = json.loads(output.stdout)["raw"]
        expected = {
            "time": packet.time, "seq": packet.seq,
            "orientation": [packet.ori_x, packet.ori_y, packet.ori_z],
            "acceleration": [packet.acc_x, packet.acc_y, packet.acc_z],
            "gyro": [packet.gyro_x, packet.gyro_y, packet.gyro_z],
            "touch": [packet.touch_x, packet.touch_y], "buttons": packet.buttons, "status": packet.status,
        }
        if raw != expected:
            print(f"encoder: {packet.encode().hex()} decodes as {raw}, expected {expected}")
            failures += 1
    print(f"encoder: {len(packets) - failures} of {len(packets)} packets agree with daydream-bridge decode")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
