"""`daydream-bridge record` against the emulated controller: the file is the
bridge's versioned format, and its packets are the ones the emulator sent.
Each recording is copied to E2E_OUT (Tests/e2e/out/); the ones committed as
Tests/Recordings/emulated-*.recording are made this way (see the README there)."""
from __future__ import annotations

import os
import shutil
import signal

from bridge_helpers import ensure_paired
from packet import BUTTON_BITS, Packet
from rig import scenario
from timeline_texts import HOLD_THEN_OFF
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"
CLICK, APP = BUTTON_BITS["click"], BUTTON_BITS["app"]

TAP_APP = """
at 0ms    tap app 150ms
at 400ms  end
"""


class Recorder:
    """`daydream-bridge record` running until `stop`, with every packet the emulator sent meanwhile."""

    def __init__(self, rig, label: str) -> None:
        ensure_paired(rig, NAME, ADDRESS)
        self.rig, self.label = rig, label
        self.path = os.path.join(rig.logs, f"{label}.recording")
        self.sent_path = os.path.join(rig.logs, f"vhci-{label}.txt")
        self.sent: list[bytes] = []
        mark = rig.emulator.mark()
        self.process = rig.bridge("record", self.path, name=f"record-{label}")
        rig.emulator.wait_event("subscribed", NAME, since=mark, timeout=60, on=True)
        # Once the recorder has written a packet, it reads every one sent after the log's clear.
        assert wait_until(lambda: packets(self.lines()), timeout=30), f"record wrote no packet in 30 s: {self.lines()}"
        rig.emulator.request("notifications", path=self.sent_path, clear=True)

    def lines(self) -> list[str]:
        """The recording's lines so far (the recorder writes each line as it happens)."""
        if not os.path.exists(self.path):
            return []
        with open(self.path, encoding="utf-8", errors="replace") as file:
            return file.read().splitlines()

    def kinds(self) -> list[str]:
        """The recording's entries so far: "packet" or the event's name."""
        body = [line.split() for line in self.lines() if line[:1].isdigit()]
        return ["packet" if len(b) == 2 and len(b[1]) == 40 else b[1] for b in body if len(b) >= 2]

    def play(self, timeline: str) -> None:
        mark = self.rig.emulator.mark()
        self.rig.play(NAME, timeline)
        self.rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=60)

    def take_sent(self) -> None:
        """What the emulator sent since the last call (input notifications: 20 bytes)."""
        self.rig.emulator.request("notifications", path=self.sent_path, clear=True)
        for line in open(self.sent_path, encoding="utf-8"):
            data = bytes.fromhex(line.split()[3])
            if len(data) == 20:
                self.sent.append(data)

    def stop(self) -> list[str]:
        """Stops the recorder once it has recorded every packet sent (or after 10 s); the file's lines."""
        self.take_sent()
        wait_until(lambda: set(self.sent) <= set(packets(self.lines())), timeout=10)
        self.process.stop(sig=signal.SIGINT)
        assert self.process.process.returncode == 0, f"record exited {self.process.process.returncode}"
        lines = open(self.path, encoding="utf-8").read().splitlines()
        assert lines and lines[0] == "# daydream-bridge recording v1", f"header: {lines[:1]}"
        assert any(line.upper() == f"ADDRESS {ADDRESS}" for line in lines), "no address line"
        out = os.environ.get("E2E_OUT")
        if out:
            shutil.copy(self.path, os.path.join(out, f"{self.label}.recording"))
        return lines


def packets(lines: list[str]) -> list[bytes]:
    return [bytes.fromhex(line.split()[1]) for line in lines[1:]
            if line[:1].isdigit() and len(line.split()) == 2 and len(line.split()[1]) == 40]


def check_all_sent_recorded(recorded: list[bytes], sent: list[bytes]) -> None:
    recorded_set = set(recorded)
    missing = [data for data in sent if data not in recorded_set]
    assert sent and not missing, f"{len(missing)} of {len(sent)} packets sent are not in the recording"


@scenario("bridge: record a session from the emulated controller", needs=("record",))
def bridge_record(rig):
    """Records the gamepad timeline; every packet the emulator wrote to /dev/vhci is in
    the file, in order, with the device information."""
    recorder = Recorder(rig, "gamepad")
    recorder.play("gamepad")
    recorded = packets(recorder.stop())
    check_all_sent_recorded(recorded, recorder.sent)
    touches = {(p.touch_x, p.touch_y) for p in map(Packet.decode, recorded)}
    assert (255, 128) in touches and (40, 215) in touches, f"touch points missing: {sorted(touches)}"
    rig.figure(f"recorded {len(recorded)} packets of the gamepad timeline")


@scenario("bridge: record the mouse timeline from the emulated controller", needs=("record",))
def bridge_record_mouse(rig):
    """Records the mouse timeline: every packet sent is in the file, with the
    trackpad path's ends and the gyro turn."""
    recorder = Recorder(rig, "mouse")
    recorder.play("mouse")
    recorded = packets(recorder.stop())
    check_all_sent_recorded(recorded, recorder.sent)
    decoded = list(map(Packet.decode, recorded))
    touches = {(p.touch_x, p.touch_y) for p in decoded}
    assert (64, 128) in touches and (192, 128) in touches, f"trackpad path missing: {sorted(touches)}"
    assert any(p.gyro_y == 400 for p in decoded), "no packet with the gyro turning"
    rig.figure(f"recorded {len(recorded)} packets of the mouse timeline")


@scenario("bridge: record a power-off with click held, and the reconnect", needs=("record",))
def bridge_record_power_off(rig):
    """The controller powers off with click held and on again; the recording has the
    press, then `disconnected`, then `connected` and an app tap after it."""
    recorder = Recorder(rig, "power-off")
    mark = rig.emulator.mark()
    recorder.play(HOLD_THEN_OFF)
    rig.emulator.wait_event("disconnected", NAME, since=mark, timeout=30, reason=0x15)
    recorder.take_sent()
    # Until the recorder has seen the link go (or 30 s); the assertions below say what is missing.
    wait_until(lambda: "disconnected" in recorder.kinds(), timeout=30)
    mark = rig.emulator.mark()
    rig.emulator.request("power", name=NAME, on=True)
    rig.emulator.wait_event("subscribed", NAME, since=mark, timeout=90, on=True)
    # Until the recorder has the link back (it records "connected" before any packet after it).
    wait_until(lambda: "connected" in recorder.kinds()[recorder.kinds().index("disconnected"):]
               if "disconnected" in recorder.kinds() else False, timeout=30)
    recorder.play(TAP_APP)
    lines = recorder.stop()

    body = [line.split() for line in lines if line[:1].isdigit()]
    kinds = ["packet" if len(b) == 2 and len(b[1]) == 40 else b[1] for b in body]
    assert "disconnected" in kinds and "connected" in kinds[kinds.index("disconnected"):], \
        f"no disconnect followed by a connect: {[k for k in kinds if k != 'packet']}"
    cut = kinds.index("disconnected")
    before = [Packet.decode(bytes.fromhex(b[1])) for b, k in zip(body[:cut], kinds) if k == "packet"]
    after = [Packet.decode(bytes.fromhex(b[1])) for b, k in zip(body[cut:], kinds[cut:]) if k == "packet"]
    assert any(p.buttons & CLICK for p in before), "click was not held before the power-off"
    assert before[-1].buttons & CLICK, "the last packet before the power-off has click released"
    assert any(p.buttons & APP for p in after), "no app tap after the reconnect"
    recorded = set(packets(lines))
    kept = sum(1 for data in recorder.sent if data in recorded)
    rig.figure(f"power-off recording: {len(before)} packets before the drop, {len(after)} after; "
               f"{kept} of {len(recorder.sent)} sent are recorded")
