"""The runner's side of the emulator's control socket (JSON lines)."""
from __future__ import annotations

import json
import os
import select
import socket
import time


class RigError(Exception):
    """The rig itself failed (not the thing under test)."""


class EmulatorClient:
    def __init__(self, path: str, timeout: float = 90.0, pid_file: str | None = None) -> None:
        deadline = time.monotonic() + timeout
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        while True:
            try:
                self.sock.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if pid_file and not _alive(pid_file):
                    raise RigError("the emulator died while starting (see emulator.log)") from None
                if time.monotonic() > deadline:
                    raise RigError(f"the emulator's socket {path} did not appear in {timeout:.0f} s") from None
                time.sleep(0.2)
        self.buffer = b""
        self.events: list[dict] = []
        self.replies: dict[int, dict] = {}
        self.next_id = 1

    def _pump(self, timeout: float) -> None:
        readable, _, _ = select.select([self.sock], [], [], max(0.0, timeout))
        if not readable:
            return
        data = self.sock.recv(65536)
        if not data:
            raise RigError("the emulator closed its control socket (see emulator.log)")
        self.buffer += data
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(line)
            if "event" in message:
                self.events.append(message)
            else:
                self.replies[message.get("id")] = message

    def request(self, cmd: str, timeout: float = 30.0, **fields) -> dict:
        request_id = self.next_id
        self.next_id += 1
        self.sock.sendall((json.dumps({"id": request_id, "cmd": cmd, **fields}) + "\n").encode())
        deadline = time.monotonic() + timeout
        while request_id not in self.replies:
            if time.monotonic() > deadline:
                raise RigError(f"the emulator did not answer '{cmd}' in {timeout:.0f} s")
            self._pump(deadline - time.monotonic())
        reply = self.replies.pop(request_id)
        if not reply.get("ok"):
            raise RigError(f"emulator '{cmd}' failed: {reply.get('error')}")
        return reply

    def mark(self) -> int:
        """An index into the event list: wait_event(since=mark) looks after it."""
        self.poll()
        return len(self.events)

    def poll(self) -> None:
        self._pump(0)

    def wait_event(self, event: str, name: str | None = None, since: int = 0,
                   timeout: float = 30.0, **fields) -> dict:
        deadline = time.monotonic() + timeout
        index = since
        while True:
            while index < len(self.events):
                message = self.events[index]
                index += 1
                if message["event"] == event and (name is None or message["name"] == name) \
                        and all(message.get(k) == v for k, v in fields.items()):
                    return message
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(
                    f"no emulator event '{event}'{' for ' + name if name else ''} {fields or ''}"
                    f" within {timeout:.0f} s; last events: "
                    + "; ".join(f"{m['name']}:{m['event']}" for m in self.events[-8:]))
            self._pump(min(remaining, 0.5))


def _alive(pid_file: str) -> bool:
    try:
        with open(pid_file) as file:
            os.kill(int(file.read().strip()), 0)
        return True
    except (OSError, ValueError):
        return False
