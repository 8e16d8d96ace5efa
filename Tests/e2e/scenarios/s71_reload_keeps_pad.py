"""A reload keeps the devices it still fits."""
from __future__ import annotations

from bridge_helpers import KEYBOARD, gamepad, play_and_read, start_streaming
from input_devices import expect_frames, read_many, wait_for_device
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"

PAD_ONLY = """
[bridge]
profile = "gamepad"

[profile.gamepad]
click = "BTN_SOUTH"
"""
# A keyboard binding added: the gamepad's description stays the same, a keyboard is new.
WITH_KEYBOARD = PAD_ONLY + 'app = "KEY_ESC"\n'
# The gamepad's codes change: it is made again.
OTHER_PAD_CODES = WITH_KEYBOARD.replace('click = "BTN_SOUTH"', 'click = "BTN_WEST"')

PRESS_CLICK = """
at 0ms    press click
at 200ms  end
"""
RELEASE_CLICK = """
at 0ms    release click
at 200ms  end
"""
TAP_APP = """
at 0ms    tap app 150ms
at 400ms  end
"""


@scenario("bridge: a reload that adds a keyboard binding keeps the gamepad; one that changes its codes remakes it",
          needs=("run",))
def bridge_reload_keeps_pad(rig):
    """Click held across a reload that adds a keyboard: the pad's node is not destroyed and
    the click is not pressed on it again; the keyboard appears and takes the new binding.
    Then a reload that changes the pad's codes: the pad lets go of the click, then goes, and
    a new pad takes the new code."""
    bridge = start_streaming(rig, NAME, ADDRESS, PAD_ONLY)
    pad = gamepad(rig)

    _, frames = play_and_read(rig, NAME, PRESS_CLICK, [pad])
    expect_frames(frames[pad], [["BTN_SOUTH 1"]], "click pressed")

    rig.write_config(WITH_KEYBOARD)
    keyboard = wait_for_device(lambda name: name == KEYBOARD, timeout=15)
    # The mapping lets go of what it held when it takes a new config, on the same pad.
    expect_frames(pad.read_frames(2, until_quiet=0.5), [["BTN_SOUTH 0"]], "the reload, click still held")
    _, frames = play_and_read(rig, NAME, TAP_APP, [pad, keyboard])
    expect_frames(frames[keyboard], [["KEY_ESC 1"], ["KEY_ESC 0"]], "the new keyboard binding")
    expect_frames(frames[pad], [], "the pad while click stays held (not pressed again)")
    assert not pad.gone, "the gamepad was destroyed by a reload that only added a keyboard binding"
    assert bridge.alive(), "the bridge died on the reload"

    # Let go and press again: the click is held on the pad once more.
    _, frames = play_and_read(rig, NAME, RELEASE_CLICK, [pad])
    expect_frames(frames[pad], [], "the click released (it was let go at the reload)")
    _, frames = play_and_read(rig, NAME, PRESS_CLICK, [pad])
    expect_frames(frames[pad], [["BTN_SOUTH 1"]], "click pressed again")

    rig.write_config(OTHER_PAD_CODES)
    # Released first, then destroyed (the new pad is made before the old one goes). evdev answers
    # ENODEV before what a reader has not read yet, so the release may be lost to this reader
    # when the pad goes first: only what arrives is checked (DeviceRefitTests check the order).
    frames = read_many([pad], 15)[pad]
    assert pad.gone, "the gamepad whose codes changed was not made again within 15 s"
    if frames:
        expect_frames(frames, [["BTN_SOUTH 0"]], "the old pad before it goes")
    old_path = pad.path
    pad.close()
    new_pad = gamepad(rig, exclude=(old_path,))
    _, frames = play_and_read(rig, NAME, RELEASE_CLICK, [new_pad])
    expect_frames(frames[new_pad], [], "the new pad while click, held across the reload, is let go")
    _, frames = play_and_read(rig, NAME, PRESS_CLICK, [new_pad])
    expect_frames(frames[new_pad], [["BTN_WEST 1"]], "the new pad's code")
    play_and_read(rig, NAME, RELEASE_CLICK, [new_pad])
    keyboard.drain()
    assert not keyboard.gone, "the keyboard, described as before, was made again"
    assert bridge.alive(), "the bridge died on the second reload"
    new_pad.close()
    keyboard.close()
