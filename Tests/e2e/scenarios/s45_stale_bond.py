"""The controller forgets its bond (a reset, or paired elsewhere since): the
bridge says what to do, and `forget` then `pair` bring it back."""
from __future__ import annotations

import os
import time

from bridge_helpers import ensure_paired, gamepad, play_and_read, run_bridge_command, start_bridge, wait_streaming
from input_devices import expect_frames
from processes import log_since
from rig import scenario
from timeline_texts import TAP_CLICK
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"


def wait_log(process, offset: int, text: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while True:
        log = log_since(process, offset)
        if text in log:
            return log
        assert process.alive(), f"the bridge exited:\n{log[-2000:]}"
        assert time.monotonic() < deadline, f"no {text!r} in the bridge's log within {timeout:.0f} s:\n{log[-2000:]}"
        time.sleep(0.2)


@scenario("bridge: the controller forgot the bond -> the bridge says forget and pair; that recovers it",
          needs=("run", "forget", "pair"))
def bridge_stale_bond(rig):
    """BlueZ still holds keys the controller no longer has: reconnecting fails
    authentication. The running bridge logs one line naming `forget ADDRESS` and
    `pair`, keeps running, and once the user does both, the controller streams
    again on the same gamepad."""
    ensure_paired(rig, NAME, ADDRESS)
    mark = rig.emulator.mark()
    bridge = start_bridge(rig)
    offset = os.path.getsize(bridge.log_path)
    pad = gamepad(rig)
    node = pad.path
    wait_streaming(rig, NAME, since=mark)

    rig.emulator.request("power", name=NAME, on=False)
    rig.emulator.request("forget_bonds", name=NAME)
    rig.emulator.request("power", name=NAME, on=True)
    started = time.monotonic()
    hint = f"daydream-bridge forget {ADDRESS}"
    log = wait_log(bridge, offset, hint, timeout=90)
    rig.figure(f"stale bond -> the bridge says what to do: {time.monotonic() - started:.1f} s")
    bluez_stopped = any("bluetoothd stopped while connecting" in line for line in log.splitlines() if hint in line)
    exit_lag = ""
    if bluez_stopped and rig.bluetoothd is not None:
        # Debian 12's BlueZ 5.66 crashes on the failed encryption. Its name leaves the bus
        # as its descriptors close, before the process is gone, so the bridge can say so
        # while the process still runs (0.06 s after, once): wait for it to end, not for
        # retries that nothing will make.
        said = time.monotonic()
        assert wait_until(lambda: not rig.bluetoothd.alive(), timeout=60), "bluetoothd left the bus but did not exit"
        exit_lag = f"; its process was gone {time.monotonic() - said:.2f} s after this scenario read the hint"
    elif rig.bluetoothd is not None and rig.bluetoothd.alive():
        # Two more connection attempts reach the controller: the warning must not come with each.
        attempts = rig.emulator.mark()

        def retried() -> bool:
            rig.emulator.poll()
            return sum(1 for m in rig.emulator.events[attempts:] if m["event"] == "connected" and m["name"] == NAME) >= 2
        assert wait_until(retried, timeout=60), "the bridge did not try the controller again twice in 60 s"
    warnings = [line for line in log_since(bridge, offset).splitlines() if hint in line]
    assert len(warnings) == 1, f"the stale-bond hint was logged {len(warnings)} times:\n" + "\n".join(warnings)
    assert warnings[0].startswith("<4>"), f"the stale-bond hint is not a warning: {warnings[0]}"
    assert bridge.alive(), "the bridge died on the stale bond"
    if bluez_stopped:
        # BlueZ 5.66 crashes instead of answering le-connection-key-missing; the user (or
        # systemd) starts it again.
        rig.figure("BlueZ stopped on the stale bond (5.66 crashes there); "
                   f"the bridge pointed at forget and pair{exit_lag}")

    if rig.bluetoothd is None or not rig.bluetoothd.alive():
        rig.start_bluetoothd()
    # The bridge holds off reconnecting after such a stop, so bluetoothd stays up for forget.
    result = run_bridge_command(rig, "forget", ADDRESS)
    assert result.returncode == 0, f"forget exited {result.returncode}:\n{result.stdout}{result.stderr}"
    assert rig.bluetoothd.alive(), "bluetoothd stopped again before 'forget'"
    # 'pair' asks for the home button held: the controller wakes and advertises afresh.
    rig.emulator.request("power", name=NAME, on=False)
    rig.emulator.request("power", name=NAME, on=True)
    mark = rig.emulator.mark()
    result = run_bridge_command(rig, "pair", ADDRESS)
    assert result.returncode == 0, f"pair exited {result.returncode}:\n{result.stdout}{result.stderr}"
    rig.emulator.wait_event("paired", NAME, since=mark, timeout=5)
    wait_streaming(rig, NAME, since=mark, timeout=90)

    assert not pad.gone, "the gamepad's event node went away"
    _, frames = play_and_read(rig, NAME, TAP_CLICK, [pad])
    expect_frames(frames[pad], [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]], "after forget and pair")
    assert pad.path == node, f"the gamepad moved from {node} to {pad.path}"
    pad.close()
