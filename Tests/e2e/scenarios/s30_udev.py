"""udev's own classification of the bridge's devices (input_id alone: the
project's 65- rule is not installed in the guest, so the capabilities must
say it by themselves)."""
from __future__ import annotations

from bridge_helpers import GAMEPAD, KEYBOARD, MOUSE, check_classes, ensure_paired, start_bridge, wait_streaming
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
    check_classes(pad_props, mouse_props, key_props)
