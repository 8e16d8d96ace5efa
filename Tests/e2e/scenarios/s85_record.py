"""`daydream-bridge record` against the emulated controller: the file is the
bridge's versioned format, and its packets are the ones the emulator sent.
The recordings land in Tests/e2e/out/ for the replay tests to use."""
from __future__ import annotations

import os
import shutil
import signal
import time

from bridge_helpers import ensure_paired
from packet import Packet
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"


@scenario("bridge: record a session from the emulated controller", needs=("record",))
def bridge_record(rig):
    """Records the gamepad timeline; every packet the emulator wrote to /dev/vhci is in
    the file, in order, with the device information."""
    ensure_paired(rig, NAME, ADDRESS)
    path = os.path.join(rig.logs, "gamepad.recording")
    mark = rig.emulator.mark()
    recorder = rig.bridge("record", path, name="record")
    rig.emulator.wait_event("subscribed", NAME, since=mark, timeout=60, on=True)
    time.sleep(0.5)
    log_path = os.path.join(rig.logs, "vhci-record.txt")
    rig.emulator.request("notifications", path=log_path, clear=True)
    mark = rig.emulator.mark()
    rig.play(NAME, "gamepad")
    rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=60)
    # What was sent up to now; the recorder gets half a second to read the last of it.
    rig.emulator.request("notifications", path=log_path, clear=True)
    time.sleep(0.5)
    recorder.stop(sig=signal.SIGINT)
    assert recorder.process.returncode == 0, f"record exited {recorder.process.returncode}"

    lines = open(path, encoding="utf-8").read().splitlines()
    assert lines and lines[0] == "# daydream-bridge recording v1", f"header: {lines[:1]}"
    assert any(line.upper() == f"ADDRESS {ADDRESS}" for line in lines), "no address line"
    recorded = [bytes.fromhex(line.split()[1]) for line in lines[1:]
                if line[:1].isdigit() and len(line.split()) == 2 and len(line.split()[1]) == 40]
    sent = [bytes.fromhex(line.split()[3]) for line in open(log_path)]
    recorded_set = set(recorded)
    missing = [data for data in sent if data not in recorded_set]
    assert sent and not missing, f"{len(missing)} of {len(sent)} packets sent are not in the recording"
    touches = {(p.touch_x, p.touch_y) for p in map(Packet.decode, recorded)}
    assert (255, 128) in touches and (40, 215) in touches, f"touch points missing: {sorted(touches)}"
    out = os.environ.get("E2E_OUT")
    if out:
        shutil.copy(path, os.path.join(out, "gamepad.recording"))
    rig.figure(f"recorded {len(recorded)} packets of the gamepad timeline")
