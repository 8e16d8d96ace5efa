"""Waiting for a condition instead of sleeping for a guess."""
from __future__ import annotations

import time


def wait_until(condition, timeout: float, interval: float = 0.05):
    """Polls `condition` until it returns something true, and returns that; after
    `timeout` s returns the last (false) value, so the caller's own assertion says
    what was missing."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)
