"""Two controllers at once: two gamepads, inputs never crossed."""
from __future__ import annotations

from bridge_helpers import GAMEPAD, ensure_paired, play_and_read, start_bridge, stick, unpair, wait_streaming
from input_devices import expect_frames, read_many, wait_for_device
from rig import scenario

A, A_ADDRESS = "pad", "C0:DD:EE:00:00:01"
B, B_ADDRESS = "pad-b", "C0:DD:EE:00:00:02"

A_ONLY = """
at 0ms    tap click 150ms
at 400ms  end
"""
B_ONLY = """
at 0ms    tap app 150ms
at 400ms  end
"""
A_BOTH = """
at 0ms    touch 255 128
at 200ms  press volume-up
at 700ms  release volume-up
at 900ms  lift
at 1100ms end
"""
B_BOTH = """
at 0ms    touch 0 128
at 200ms  press volume-down
at 700ms  release volume-down
at 900ms  lift
at 1100ms end
"""


@scenario("bridge: two controllers -> two gamepads, inputs never crossed", needs=("run",))
def bridge_two_controllers(rig):
    """Each controller gets its own gamepad; one's input never shows on the other,
    also when both are moving at the same time."""
    ensure_paired(rig, A, A_ADDRESS)
    ensure_paired(rig, B, B_ADDRESS)
    try:
        two_gamepads(rig)
    finally:
        unpair(rig, B, B_ADDRESS)  # later scenarios expect one controller


def two_gamepads(rig):
    mark = rig.emulator.mark()
    start_bridge(rig)
    wait_streaming(rig, A, since=mark)
    wait_streaming(rig, B, since=mark)
    first = wait_for_device(lambda n: n == GAMEPAD, timeout=30)
    second = wait_for_device(lambda n: n == GAMEPAD, timeout=30, exclude=(first.path,))

    # Which node is whose: a's click lands on exactly one of them.
    _, frames = play_and_read(rig, A, A_ONLY, [first, second])
    if frames[first] and not frames[second]:
        pad_a, pad_b = first, second
    elif frames[second] and not frames[first]:
        pad_a, pad_b = second, first
    else:
        raise AssertionError(f"a's click on both or neither gamepad: {frames[first]} / {frames[second]}")
    expect_frames(frames[pad_a], [["BTN_SOUTH 1"], ["BTN_SOUTH 0"]], "controller a's gamepad")

    _, frames = play_and_read(rig, B, B_ONLY, [pad_a, pad_b])
    expect_frames(frames[pad_b], [["BTN_EAST 1"], ["BTN_EAST 0"]], "controller b's gamepad")
    expect_frames(frames[pad_a], [], "controller a's gamepad while only b is used")

    # Both at once.
    for device in (pad_a, pad_b):
        device.drain()
    mark = rig.emulator.mark()
    rig.play(A, A_BOTH)
    length = rig.play(B, B_BOTH)
    frames = read_many([pad_a, pad_b], length + 1.0)
    rig.emulator.wait_event("play_finished", A, since=mark)
    rig.emulator.wait_event("play_finished", B, since=mark)
    ax, ay = stick(255, 128)
    bx, by = stick(0, 128)
    expect_frames(frames[pad_a], [[f"ABS_X {ax}", f"ABS_Y {ay}"], ["BTN_TR 1"], ["BTN_TR 0"], ["ABS_X 0", "ABS_Y 0"]],
                  "controller a while both move")
    expect_frames(frames[pad_b], [[f"ABS_X {bx}", f"ABS_Y {by}"], ["BTN_TL 1"], ["BTN_TL 0"], ["ABS_X 0", "ABS_Y 0"]],
                  "controller b while both move")
    for device in (pad_a, pad_b):
        device.close()
