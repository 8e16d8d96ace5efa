"""What the soak does to the daemon while it streams (see soak_run.py).

Each disruption is a generator: it does a step, then yields a Wait for what
must happen next (a condition with a deadline, or just a pause) and is sent
back whether the condition held. A Track runs one such task at a time, a
pause after each, so the feed loop never blocks on any of them.

  reconnects  one controller at a time, in turn: its feed stops, and once the
              daemon has put out every packet of the segment, the fake
              bluetoothd drops it out of range (the daemon's first reconnect
              attempt fails), brings it back, and the feed starts a new
              segment when the daemon has its notifications again;
  reloads     the config file rewritten, valid and invalid in turn: each
              must be logged as applied or refused, and the control socket
              must then name the profiles of the config that should be in
              force (an invalid one keeps the previous);
  clients     a control-socket client connects and goes away: raw requests
              (none, half a line, silent until the daemon's timeout, status,
              unknown, over-long) and the daemon's own `profile`,
              `profile --next` and `list`.
"""

import os
import socket
import subprocess
import time

import fake_bluez

SPARE_PROFILE = """
[profile.spare]
touchpad = {{ mode = "stick", deadzone = 0.0, saturation = 1.0, shape = "square" }}
click = "{click}"
"""


class Wait:
    """What a task waits for: `condition()` to hold, for at most `timeout` s (no condition: a pause)."""

    def __init__(self, condition=None, timeout=0.0):
        self.condition = condition
        self.deadline = time.monotonic() + timeout


class Track:
    """Runs tasks from `make_task()` one after another, `interval` s apart, while allowed to start."""

    def __init__(self, name, interval, make_task):
        self.name = name
        self.interval = interval
        self.make_task = make_task
        self.task = None
        self.waiting = None
        self.next_start = 0.0

    @property
    def busy(self):
        return self.task is not None

    def step(self, now, may_start):
        if self.task is None:
            if may_start and now >= self.next_start:
                self.task = self.make_task()
                self.resume(None)
            return
        held = self.waiting.condition is not None and self.waiting.condition()
        if held or now >= self.waiting.deadline:
            self.resume(held or self.waiting.condition is None)

    def resume(self, value):
        try:
            self.waiting = self.task.send(value)
        except StopIteration:
            self.task = None
            self.next_start = time.monotonic() + self.interval


class Disruptions:
    """The three tracks, their counts, and the problems they found. `log` counts the daemon's
    log lines that contain a phrase (soak_run.DaemonLog)."""

    def __init__(self, rig, log, feeds, config_path, control_path, bridge):
        self.rig = rig
        self.log = log
        self.feeds = feeds
        self.config_path = config_path
        self.control_path = control_path
        self.bridge = bridge
        self.problems = []
        self.reconnects = 0
        self.failed_connects = 0
        self.reloads = {"applied": 0, "refused": 0}
        self.clients = {}
        with open(config_path) as f:
            base = f.read()
        # In turn: one more profile needing the same devices (reloaded in place), one needing
        # a keyboard too (the devices are replaced), back to the first (replaced again); an
        # invalid one after each (a TOML syntax error, an unknown button).
        self.valid = [(base + SPARE_PROFILE.format(click="BTN_SOUTH"), ["soak", "spare"]),
                      (base + SPARE_PROFILE.format(click="KEY_SPACE"), ["soak", "spare"]),
                      (base, ["soak"])]
        self.invalid = [base + "\n[profile.broken\n",
                        base + '\n[profile.broken]\nclick = "BTN_NO_SUCH_BUTTON"\n']
        self.running_profiles = ["soak"]
        self.reload_turn = 0
        self.reconnect_turn = 0
        self.client_turn = 0
        self.client_kinds = [
            ("hang-up", self.hang_up), ("status", self.status), ("half-line", self.half_line),
            ("profile", lambda: self.command(["profile"])), ("unknown", self.unknown),
            ("silent", self.silent), ("list", lambda: self.command(["list"], bluez=True)),
            ("too-long", self.too_long), ("profile-next", lambda: self.command(["profile", "--next"])),
        ]
        self.tracks = [Track("reconnects", 2.0, self.reconnect),
                       Track("reloads", 1.0, self.reload),
                       Track("clients", 0.5, self.client)]

    @property
    def busy(self):
        return any(track.busy for track in self.tracks)

    def each_kind_done(self):
        """Every kind of disruption has run once: each notify method reconnected, a whole
        cycle of configs, every kind of client."""
        methods = {feed.method for feed in self.feeds}
        return (all(any(feed.reconnects for feed in self.feeds if feed.method == m) for m in methods)
                and self.reload_turn >= 2 * len(self.valid) and len(self.clients) == len(self.client_kinds))

    def step(self, now, may_start):
        for track in self.tracks:
            track.step(now, may_start)

    # MARK: Reconnects

    def reconnect(self):
        # StartNotify's controller (the last) comes second, so the warm-up sees both paths.
        order = [0, len(self.feeds) - 1] + list(range(1, len(self.feeds) - 1))
        feed = self.feeds[order[self.reconnect_turn % len(self.feeds)]]
        self.reconnect_turn += 1
        feed.pause()
        if not (yield Wait(feed.caught_up, 5)):
            self.problems.append(f"{feed.address}: {feed.missing()} packets of segment "
                                 f"{len(feed.segments) + 1} not out 5 s after its last")
        feed.end_segment()
        log_start = len(self.rig.fake.log)
        fake_bluez.run_command(self.rig.fake, {"cmd": "drop", "address": feed.address, "present": False}, None)
        # Out of range until the daemon's first reconnect attempt (after 0.5 s) has failed.
        yield Wait(lambda: self.connect_calls(feed, log_start) > 0, 3)
        fake_bluez.run_command(self.rig.fake, {"cmd": "configure", "address": feed.address, "present": True}, None)
        if (yield Wait(feed.link_up, 20)):
            self.failed_connects += self.connect_calls(feed, log_start) - 1
            self.reconnects += 1
            feed.reconnects += 1
            feed.start_segment()
        else:
            self.problems.append(f"{feed.address}: not streaming again 20 s after it came back in range")
            yield Wait(feed.link_up, 3600)
            feed.start_segment()

    def connect_calls(self, feed, since):
        """The daemon's Device1.Connect calls for `feed` since the fake's log had `since` lines."""
        call = "Connect " + self.rig.fake.device(feed.address).path
        return self.rig.fake.log[since:].count(call)

    # MARK: Reloads

    def reload(self):
        turn = self.reload_turn
        self.reload_turn += 1
        applied_before = self.log.count("config reloaded from")
        refused_before = self.log.count("the new config has errors, so the running one stays")
        if turn % 2 == 0:
            text, profiles = self.valid[(turn // 2) % len(self.valid)]
            # As editors save: a new file renamed over the old one.
            with open(self.config_path + ".new", "w") as f:
                f.write(text)
            os.rename(self.config_path + ".new", self.config_path)
            expected, outcome, seen = "config reloaded from", "applied", applied_before
        else:
            with open(self.config_path, "w") as f:  # in place
                f.write(self.invalid[(turn // 2) % len(self.invalid)])
            profiles = self.running_profiles
            expected, outcome = "the new config has errors, so the running one stays", "refused"
            seen = refused_before
        if not (yield Wait(lambda: self.log.count(expected) > seen, 5)):
            self.problems.append(f"reload {turn + 1}: no '{expected}' in the daemon's log 5 s after the write")
            return
        self.reloads[outcome] += 1
        self.running_profiles = profiles
        reply = yield from self.request(b"profile no-such-profile\n")
        named = reply.split("profiles: ", 1)[-1].strip().split(", ") if "profiles: " in reply else None
        if named != profiles:
            self.problems.append(f"reload {turn + 1} ({outcome}): the daemon names profiles {named}, "
                                 f"expected {profiles}; its answer: {reply!r}")

    # MARK: Control-socket clients

    def client(self):
        kind, task = self.client_kinds[self.client_turn % len(self.client_kinds)]
        self.client_turn += 1
        problem = yield from task()
        self.clients[kind] = self.clients.get(kind, 0) + 1
        if problem:
            self.problems.append(f"control client '{kind}': {problem}")

    def request(self, payload, read=True):
        """Sends `payload` on a new connection; returns the answer (read to the daemon's close)."""
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.connect(self.control_path)
            connection.setblocking(False)
            if payload:
                connection.sendall(payload)
            if not read:
                return ""
            received = []

            def closed():
                try:
                    chunk = connection.recv(4096)
                except BlockingIOError:
                    return False
                except ConnectionResetError:
                    return True
                received.append(chunk)
                return not chunk

            if not (yield Wait(closed, 5)):
                self.problems.append(f"control socket: no answer to {payload[:40]!r} in 5 s")
            return b"".join(received).decode(errors="replace")
        finally:
            connection.close()

    def hang_up(self):
        yield from self.request(b"", read=False)

    def half_line(self):
        yield from self.request(b"stat", read=False)

    def silent(self):
        started = time.monotonic()
        reply = yield from self.request(b"")
        if reply or time.monotonic() - started < 1.5:
            return f"a silent client got {reply!r} after {time.monotonic() - started:.1f} s (the daemon waits 2 s)"
        return None

    def status(self):
        reply = yield from self.request(b"status\n")
        lines = reply.splitlines()
        if not lines or lines[0] != "ok" or len(lines) != 1 + len(self.feeds):
            return f"status answered {reply!r}"
        return None

    def unknown(self):
        reply = yield from self.request(b"frobnicate\n")
        return None if reply.startswith("error: unknown request") else f"answered {reply!r}"

    def too_long(self):
        reply = yield from self.request(b"x" * 600)
        return None if reply == "error: request too long\n" else f"answered {reply!r}"

    def command(self, arguments, bluez=False):
        """Runs `daydream-bridge ARGUMENTS --socket PATH`; a problem when it fails."""
        env = dict(os.environ, DAYDREAM_DBUS_ADDRESS=self.rig.bus_address) if bluez else None
        child = subprocess.Popen([self.bridge, *arguments, "--socket", self.control_path],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        if not (yield Wait(lambda: child.poll() is not None, 20)):
            child.kill()
        output = child.communicate()[0].decode(errors="replace")
        if child.returncode != 0:
            return f"exit status {child.returncode}: {output.strip()}"
        if bluez and not all(feed.address in output for feed in self.feeds):
            return f"not every controller listed: {output.strip()}"
        return None
