"""The library's example program (Examples/daydream-example), as the iOS README uses DDController."""
from __future__ import annotations

import os
import re
import time

from bridge_helpers import ensure_paired
from rig import Skip, scenario
from waiting import wait_until

NAME, ADDRESS = "pad", "C0:DD:EE:00:00:01"

TOUCH_AND_LONG_PRESS = """
at 0ms     touch 64 128
at 200ms   touch 191 128
at 400ms   lift
at 600ms   press home
at 2000ms  release home      # held 1.4 s: a long press (1 s)
at 2300ms  end
"""


@scenario("library: the example program prints the connect, touch points and a long press")
def library_example(rig):
    """`daydream-example` (DDController, discovery, handlers) against the emulated controller."""
    source = os.path.join(rig.repo, "Examples", "daydream-example", "main.swift")
    if "DDController" not in open(source, encoding="utf-8").read():
        raise Skip("Examples/daydream-example does not use DDController yet")
    program = os.path.join(rig.bin, "daydream-example")
    ensure_paired(rig, NAME, ADDRESS)
    mark = rig.emulator.mark()
    example = rig.program("example", [program])
    rig.emulator.wait_event("subscribed", NAME, since=mark, timeout=60, on=True)
    log = example.log_path

    def output() -> str:
        return open(log, encoding="utf-8", errors="replace").read()

    deadline = time.monotonic() + 30
    while not re.search(r"connect", output(), re.IGNORECASE):
        assert example.alive(), f"daydream-example exited:\n{output()}"
        assert time.monotonic() < deadline, f"daydream-example printed no connect:\n{output()}"
        time.sleep(0.2)

    mark = rig.emulator.mark()
    rig.play(NAME, TOUCH_AND_LONG_PRESS)
    rig.emulator.wait_event("play_finished", NAME, since=mark, timeout=30)
    # Until the example has printed the release (its last line here), or 10 s.
    wait_until(lambda: re.search(r"home: up", output(), re.IGNORECASE), timeout=10)
    text = output()
    # The example's own lines (Examples/daydream-example), in this order; others may come between.
    expected = [
        f"connected: {ADDRESS}",
        f"touch: {64 / 255:.3f} {128 / 255:.3f}",
        f"touch: {191 / 255:.3f} {128 / 255:.3f}",
        "touch: lifted",
        "home: down",
        "home: long press",
        "home: up",
    ]
    lines = [line.strip() for line in text.splitlines()]
    position = 0
    for line in lines:
        if position < len(expected) and line.upper() == expected[position].upper():
            position += 1
    assert position == len(expected), \
        f"daydream-example's output lacks '{expected[position]}' (after {expected[:position]}):\n{text}"
    assert example.alive(), f"daydream-example exited:\n{text}"
