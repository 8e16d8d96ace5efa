"""The DSU ("cemuhook") server, from the emulated controller to a client written
here from the protocol description (Python's zlib for the CRC32, nothing shared
with the bridge): version, the slot's info with the controller's address, pad
data at the packet rate with the emulated motion, and the slot shown
disconnected while the controller is off, then back in the same slot."""
from __future__ import annotations

import struct
import time

from bridge_helpers import start_streaming, wait_streaming
from dsu_client import DATA, DSU_PORT, VERSION, Client
from rig import scenario
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
CONFIG = f"""
[dsu]
listen = "127.0.0.1:{DSU_PORT}"

[profile.pad]
click = "BTN_SOUTH"
"""
# The controller's units (protocol.md): 8 g and 2048 deg/s over 4095 counts.
G_PER_COUNT = 8 / 4095
DEG_S_PER_COUNT = 2048 / 4095
GYRO, ACCEL = (300, -150, 75), (40, 512, -60)
MOTION = f"""
at 0ms     gyro 0 0 0
at 500ms   gyro {GYRO[0]} {GYRO[1]} {GYRO[2]}
at 500ms   accel {ACCEL[0]} {ACCEL[1]} {ACCEL[2]}
at 2500ms  end
"""


def pad_data(body: bytes) -> dict:
    """The fields of a pad-data body (after the type) this scenario checks."""
    assert len(body) == 80, f"pad data of {len(body)} bytes (80 after the type)"
    (packet,) = struct.unpack_from("<I", body, 12)
    (timestamp,) = struct.unpack_from("<Q", body, 48)
    accel = struct.unpack_from("<3f", body, 56)
    gyro = struct.unpack_from("<3f", body, 68)
    return {"slot": body[0], "state": body[1], "mac": body[4:10], "connected": body[11], "packet": packet,
            "timestamp": timestamp, "accel": accel, "gyro": gyro}


@scenario("DSU: a client from the protocol gets the controller's slot, motion and reconnect", needs=("run",))
def dsu_server(rig):
    """[dsu] listen on 127.0.0.1:26760: version 1001; slot 0 connected with the controller's
    address as its MAC; subscribed to all slots, pad data at the packet rate whose acceleration
    (g, negated) and angular rate (deg/s: pitch x, yaw -y, roll -z) are the emulated motion's;
    packet numbers and timestamps increase; powered off, slot 0 is disconnected; on again,
    it is connected in the same slot."""
    bridge = start_streaming(rig, NAME, ADDRESS, CONFIG)
    client = Client()
    try:
        # Subscribed and renewing each second, as Dolphin does: until its requests have run for a
        # second the bridge sends it no more bytes than it sent, then every packet. Wait for that.
        client.subscribe_all()
        flowing = []

        def streaming() -> bool:
            client.renew_if_due()
            body = client.receive(DATA, timeout=0.25)
            flowing.append(body is not None)
            return flowing[-3:] == [True] * 3
        assert wait_until(streaming, timeout=10), "pad data never came at the packet rate with the client renewing"

        # Confirmed, the client is answered in full.
        client.send(VERSION)
        body = client.receive(VERSION)
        assert body is not None and struct.unpack_from("<H", body, 0)[0] == 1001, f"version answer: {body!r}"
        mac = bytes.fromhex(ADDRESS.replace(":", ""))
        info = client.slot_info(timeout=5)
        assert info == (2, mac), f"slot 0 (state, MAC): {info}"
        started = rig.emulator.mark()
        rig.play(NAME, MOTION)
        rig.emulator.wait_event("play_started", NAME, since=started, timeout=5)
        samples = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            client.renew_if_due()
            body = client.receive(DATA, timeout=1.0)
            if body is None:
                break
            samples.append((time.monotonic(), pad_data(body)))
            if rig.emulator.events and any(e["event"] == "play_finished" for e in rig.emulator.events[started:]):
                break
            rig.emulator.poll()
        assert len(samples) > 60, f"{len(samples)} pad-data messages while the timeline played"
        pads = [pad for _, pad in samples]
        assert all(p["slot"] == 0 and p["mac"] == mac and p["connected"] == 1 for p in pads), pads[:2]
        packets = [p["packet"] for p in pads]
        stamps = [p["timestamp"] for p in pads]
        assert all(b > a for a, b in zip(packets, packets[1:])), f"packet numbers: {packets}"
        assert all(b > a for a, b in zip(stamps, stamps[1:])), f"timestamps: {stamps}"
        want_accel = tuple(-count * G_PER_COUNT for count in ACCEL)
        want_gyro = (GYRO[0] * DEG_S_PER_COUNT, -GYRO[1] * DEG_S_PER_COUNT, -GYRO[2] * DEG_S_PER_COUNT)

        def close(got, want) -> bool:
            return all(abs(g - w) <= 1e-4 * max(1.0, abs(w)) for g, w in zip(got, want))
        moving = [p for p in pads if close(p["gyro"], want_gyro)]
        assert moving, f"no pad data with the emulated rate {want_gyro}; last {pads[-1]['gyro']}"
        assert all(close(p["accel"], want_accel) for p in moving), \
            f"acceleration {moving[0]['accel']}, expected {want_accel}"
        span_s = (samples[-1][0] - samples[0][0])
        rig.figure(f"DSU: {len(pads)} pad-data messages in {span_s:.1f} s ({len(pads) / span_s:.0f}/s), "
                   f"gyro {tuple(round(v, 3) for v in moving[0]['gyro'])} deg/s, "
                   f"accel {tuple(round(v, 4) for v in moving[0]['accel'])} g")

        mark = rig.emulator.mark()
        rig.emulator.request("power", name=NAME, on=False)
        rig.emulator.wait_event("disconnected", NAME, since=mark, timeout=30)
        assert wait_until(lambda: (client.slot_info() or (None,))[0] == 0, timeout=15), \
            "slot 0 still connected after power off"
        mark = rig.emulator.mark()
        rig.emulator.request("power", name=NAME, on=True)
        wait_streaming(rig, NAME, since=mark, timeout=90)
        assert wait_until(lambda: client.slot_info() == (2, mac), timeout=15), \
            f"slot 0 after power on: {client.slot_info()}"
    finally:
        client.close()
    assert bridge.alive(), "the bridge died"
