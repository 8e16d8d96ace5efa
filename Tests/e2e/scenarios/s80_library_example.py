"""The library's example program (Examples/daydream-example), as the iOS README uses DDController."""
from __future__ import annotations

import os
import re
import time

from bridge_helpers import ensure_paired
from rig import Skip, scenario

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
    time.sleep(1.0)
    text = output()
    after_connect = text[re.search(r"connect", text, re.IGNORECASE).end():]
    # Points are printed as numbers: x about 0.25 then about 0.75 (64/255, 191/255).
    numbers = [float(n) for n in re.findall(r"\d+\.\d+", after_connect)]
    assert any(abs(n - 64 / 255) < 0.01 for n in numbers) and any(abs(n - 191 / 255) < 0.01 for n in numbers), \
        f"touch points 0.251 and 0.749 not printed:\n{text}"
    assert re.search(r"long.?press", text, re.IGNORECASE), f"no long press printed:\n{text}"
    assert example.alive(), f"daydream-example exited:\n{text}"
