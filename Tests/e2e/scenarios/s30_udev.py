"""udev's own classification of the bridge's devices (input_id alone: the
project's 65- rule is not installed in the guest, so the capabilities must
say it by themselves)."""
from __future__ import annotations

from bridge_helpers import GAMEPAD, KEYBOARD, MOUSE, ensure_paired, start_bridge, wait_streaming
from input_devices import wait_for_device
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"


@scenario("bridge: udev classifies the gamepad as a joystick (not a mouse), the mouse as a mouse",
          needs=("run",), udev=True)
def bridge_udev(rig):
    """With the default config (both profiles): ID_INPUT_JOYSTICK on the gamepad only,
    ID_INPUT_MOUSE on the mouse only, ID_INPUT_KEY on the keyboard."""
    ensure_paired(rig, NAME, ADDRESS)
    mark = rig.emulator.mark()
    start_bridge(rig)
    wait_streaming(rig, NAME, since=mark)
    pad = wait_for_device(lambda n: n == GAMEPAD, timeout=30)
    mouse = wait_for_device(lambda n: n == MOUSE, timeout=10)
    keyboard = wait_for_device(lambda n: n == KEYBOARD, timeout=10)
    try:
        pad_props, mouse_props, key_props = (d.udev_properties() for d in (pad, mouse, keyboard))
    finally:
        for device in (pad, mouse, keyboard):
            device.close()
    assert pad_props.get("ID_INPUT_JOYSTICK") == "1", f"gamepad: {pad_props}"
    for wrong in ("ID_INPUT_MOUSE", "ID_INPUT_TOUCHPAD", "ID_INPUT_TABLET", "ID_INPUT_ACCELEROMETER", "ID_INPUT_KEYBOARD"):
        assert wrong not in pad_props, f"the gamepad is also {wrong}: {pad_props}"
    assert mouse_props.get("ID_INPUT_MOUSE") == "1", f"mouse: {mouse_props}"
    assert "ID_INPUT_JOYSTICK" not in mouse_props, f"the mouse is also a joystick: {mouse_props}"
    assert key_props.get("ID_INPUT_KEY") == "1", f"keyboard: {key_props}"
    assert "ID_INPUT_JOYSTICK" not in key_props and "ID_INPUT_MOUSE" not in key_props, f"keyboard: {key_props}"
