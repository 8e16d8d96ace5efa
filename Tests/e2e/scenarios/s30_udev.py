"""udev's own classification of the bridge's devices (input_id alone: the
project's 65- rule is not installed in the guest, so the capabilities must
say it by themselves)."""
from __future__ import annotations

from bridge_helpers import bridge_devices, check_classes, start_streaming
from input_devices import udev_properties_of
from rig import scenario

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"


@scenario("bridge: udev classifies the gamepad as a joystick (not a mouse), the mouse as a mouse",
          needs=("run",), udev=True)
def bridge_udev(rig):
    """With the default config (both profiles): ID_INPUT_JOYSTICK on the gamepad only,
    ID_INPUT_MOUSE on the mouse only, ID_INPUT_KEY on the keyboard."""
    start_streaming(rig, NAME, ADDRESS)
    pad, mouse, keyboard = bridge_devices(rig)
    try:
        pad_props, mouse_props, key_props = udev_properties_of([pad, mouse, keyboard])
    finally:
        for device in (pad, mouse, keyboard):
            device.close()
    check_classes(pad_props, mouse_props, key_props)
