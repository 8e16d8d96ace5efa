"""Timelines several scenarios play, as the emulator's inline text (rig.play, play_and_read)."""
from __future__ import annotations

# The click tapped once, then nothing until 400 ms.
TAP_CLICK = """
at 0ms    tap click 150ms
at 400ms  end
"""

# A touch at the pad's right edge and the click held, then the controller powered off with both held.
HOLD_THEN_OFF = """
at 0ms    touch 255 128
at 300ms  press click
at 600ms  power-off
at 700ms  end
"""
