"""The soak: the daemon streams for a long time while things come and go.

Every controller is fed at RATE packets a second, each packet one ABS_X event
at the output (see daemon_load.py); one controller (the last) reaches the
daemon through StartNotify and PropertiesChanged instead of AcquireNotify.
Meanwhile soak_tasks.py reconnects controllers, rewrites the config and
connects control-socket clients. The checks:

- no packet lost: a controller's packets are counted per stream segment
  (from its connection to its next drop; nothing is sent while it is away),
  and every segment must put out exactly as many ABS_X events as it was sent
  packets, in order. The daemon centres the stick (ABS_X 0) whenever it
  releases everything (a drop, a reload, a profile switch); no packet of the
  feed gives 0, so those are counted apart;
- the figures flat: open fds and RSS are taken at a quiet moment (every
  controller streaming, no client, no reload under way) once every kind of
  disruption has happened (lazily made things exist), and again at the end
  at a quiet moment: the fds must not grow, RSS by at most 1 MB;
- every disruption did what it should (soak_tasks.py).
"""

import sys
import time

import fake_bluez
from soak_tasks import Disruptions

RSS_GROWTH_LIMIT_MB = 1.0


class DaemonLog:
    """Counts the daemon's log lines containing each phrase asked about, reading the file as it grows."""

    def __init__(self, path):
        self.file = open(path, "rb")
        self.lines = []
        self.partial = b""
        self.counts = {}

    def count(self, phrase):
        self.update()
        if phrase not in self.counts:
            self.counts[phrase] = sum(1 for line in self.lines if phrase in line)
        return self.counts[phrase]

    def update(self):
        chunk = self.file.read()
        if not chunk:
            return
        new = (self.partial + chunk).split(b"\n")
        self.partial = new.pop()
        for raw in new:
            line = raw.decode(errors="replace")
            self.lines.append(line)
            for phrase in self.counts:
                if phrase in line:
                    self.counts[phrase] += 1

    def close(self):
        self.file.close()


class ControllerFeed:
    """One controller's packets: sent at the rate while streaming, counted per segment."""

    def __init__(self, rig, address, method):
        self.rig = rig
        self.address = address
        self.method = method  # "AcquireNotify" or "StartNotify"
        self.sent = 0
        self.streaming = False
        self.clock = None           # (time, packets sent then) of the segment's start
        self.segment_start = None   # (packets sent, ABS_X events out) when the segment began
        self.segments = []          # (sent, out) of every finished segment
        self.reconnects = 0
        self.target = None
        self.broken = None          # why sending failed, if it did

    def characteristic(self):
        return self.rig.fake.device(self.address).characteristic(fake_bluez.INPUT)

    def link_up(self):
        """The daemon holds the notify socket (AcquireNotify) or has notifications on (StartNotify)."""
        try:
            characteristic = self.characteristic()
        except KeyError:  # not connected yet: the GATT objects are made on the first connect
            return False
        if self.method == "AcquireNotify":
            return characteristic.socket is not None
        return bool(characteristic.props[fake_bluez.CHARACTERISTIC]["Notifying"])

    def out(self):
        return len(self.rig.abs_x.get(self.address, []))

    def start_segment(self):
        self.streaming = True
        self.clock = (time.monotonic(), self.sent)
        self.segment_start = (self.sent, self.out())
        self.target = self.characteristic()

    def pause(self):
        self.streaming = False

    def caught_up(self):
        return self.out() >= self.sent

    def missing(self):
        return self.sent - self.out()

    def end_segment(self):
        sent_before, out_before = self.segment_start
        self.segments.append((self.sent - sent_before, self.out() - out_before))

    def send_due(self, now, interval):
        if not self.streaming:
            return
        start, base = self.clock
        due = base + int((now - start) / interval)
        while self.sent < due:
            packet = self.rig.packets[self.sent % len(self.rig.packets)]
            try:
                if self.method == "AcquireNotify":
                    self.target.socket.send(packet)
                elif self.target.notify(packet) != "signal":
                    raise OSError("the fake bluetoothd did not signal it (notifications off)")
            except (OSError, AttributeError) as error:  # AttributeError: the fake closed the socket
                self.broken = f"{self.address}: the daemon stopped taking packets while streaming " \
                              f"(packet {self.sent + 1}: {error})"
                self.streaming = False
                return
            self.sent += 1


class Soak:
    """One run: the feeds, the disruptions beside them, the figures and the checks."""

    def __init__(self, rig, seconds, bridge):
        self.rig = rig
        self.seconds = seconds
        count = len(rig.addresses)
        self.feeds = [ControllerFeed(rig, address, "StartNotify" if index == count - 1 else "AcquireNotify")
                      for index, address in enumerate(rig.addresses)]
        self.log = DaemonLog(rig.log_path)
        self.disruptions = Disruptions(rig, self.log, self.feeds, rig.config_path, rig.control_path, bridge)
        self.problems = []

    def loop(self, until, timeout, may_start=True, feeding=True):
        """Feeds and steps the disruptions until `until()` holds or `timeout` s pass; returns whether it held."""
        deadline = time.monotonic() + timeout
        context = self.rig.loop.get_context()
        while True:
            now = time.monotonic()
            if feeding:
                for feed in self.feeds:
                    feed.send_due(now, self.rig.interval)
            while context.pending():
                context.iteration(False)
            self.disruptions.step(now, may_start)
            if until():
                return True
            if now >= deadline:
                return False
            self.rig.check_alive()
            time.sleep(0.004)

    def quiet(self):
        return not self.disruptions.busy and all(feed.streaming or feed.broken for feed in self.feeds)

    def figures(self):
        return self.rig.process.status_kb("VmRSS"), self.rig.process.fd_count()

    def quiet_figures(self, what):
        """Lets running disruptions finish (starting none), settles, then takes RSS and fds."""
        if not self.loop(self.quiet, 60, may_start=False):
            self.problems.append(f"no quiet moment for the {what} figures in 60 s")
        self.loop(lambda: False, 0.5, may_start=False)
        return self.figures()

    def run(self):
        self.rig.wait_until(lambda: all(feed.link_up() for feed in self.feeds), 30, "every controller streaming")
        for feed in self.feeds:
            feed.start_segment()
        started = time.monotonic()
        end = started + self.seconds
        # Until every kind of disruption has happened once (and at least 2 s), then a quiet moment.
        self.loop(lambda: self.disruptions.each_kind_done() and time.monotonic() >= started + 2, self.seconds / 2)
        if not self.disruptions.each_kind_done():
            self.problems.append(f"not every kind of disruption ran in the first {self.seconds / 2:.0f} s")
        rss_start, fds_start = self.quiet_figures("first")
        baseline_at = time.monotonic() - started
        self.loop(lambda: time.monotonic() >= end, self.seconds)
        rss_end, fds_end = self.quiet_figures("last")
        for feed in self.feeds:
            feed.pause()
        self.loop(lambda: all(feed.caught_up() for feed in self.feeds), 5, may_start=False, feeding=False)
        for feed in self.feeds:
            feed.end_segment()
        return self.report(time.monotonic() - started, baseline_at, rss_start, fds_start, rss_end, fds_end)

    def report(self, wall, baseline_at, rss_start, fds_start, rss_end, fds_end):
        problems = list(self.problems) + self.disruptions.problems + [f.broken for f in self.feeds if f.broken]
        per_controller = {}
        for feed in self.feeds:
            values = self.rig.abs_x.get(feed.address, [])
            # Within each sweep of touch x the axis rises; it falls only where x wraps from 255 to 1.
            falls = sum(1 for a, b in zip(values, values[1:]) if b <= a)
            expected_falls = max(0, (feed.sent - 1) // 255)
            short = [(number + 1, sent, out) for number, (sent, out) in enumerate(feed.segments) if sent != out]
            per_controller[feed.address] = {
                "method": feed.method, "sent": feed.sent, "abs_x_events": len(values),
                "segments": len(feed.segments), "reconnects": feed.reconnects,
                "releases": self.rig.releases.get(feed.address, 0)}
            for number, sent, out in short:
                problems.append(f"{feed.address}: segment {number}: {sent} packets sent, {out} ABS_X events out "
                                f"({sent - out} lost inside the bridge)")
            if not short and falls != expected_falls:
                problems.append(f"{feed.address}: events out of order ({falls} falls, {expected_falls} expected)")
            # One subscription through its method for each connection, none through the other.
            calls = {method: self.rig.fake.log.count(f"{method} {feed.target.path}")
                     for method in ("AcquireNotify", "StartNotify")}
            per_controller[feed.address]["subscriptions"] = calls
            if calls[feed.method] != len(feed.segments) or (feed.method == "AcquireNotify" and calls["StartNotify"]):
                problems.append(f"{feed.address}: {len(feed.segments)} connections through {feed.method}, "
                                f"but the fake bluetoothd had these calls: {calls}")
        growth_mb = (rss_end - rss_start) / 1024
        if growth_mb > RSS_GROWTH_LIMIT_MB:
            problems.append(f"RSS grew by {growth_mb:.2f} MB (limit {RSS_GROWTH_LIMIT_MB:g} MB)")
        if fds_end > fds_start:
            problems.append(f"open fds grew from {fds_start} to {fds_end}")
        if self.rig.bad_lines:
            problems.append(f"{self.rig.bad_lines} output lines not in the TIME ADDRESS DEVICE TYPE CODE VALUE form")
        disruptions = self.disruptions
        result = {
            "seconds": round(wall, 1), "controllers": len(self.feeds), "per_controller": per_controller,
            "reconnects": disruptions.reconnects, "failed_connect_attempts": disruptions.failed_connects,
            "reloads": disruptions.reloads,
            "devices_replaced": self.log.count("devices replaced for the new config"),
            "clients": disruptions.clients,
            "figures_from_s": round(baseline_at, 1),
            "rss_start_mb": round(rss_start / 1024, 2), "rss_end_mb": round(rss_end / 1024, 2),
            "rss_growth_mb": round(growth_mb, 3), "fds_start": fds_start, "fds_end": fds_end,
            "problems": problems,
        }
        self.log.close()
        print(summary(result), file=sys.stderr)
        return result


def summary(result):
    """What happened, in a few lines for the person running the soak."""
    controllers = result["per_controller"].values()
    sent = sum(c["sent"] for c in controllers)
    out = sum(c["abs_x_events"] for c in controllers)
    segments = sum(c["segments"] for c in controllers)
    start_notify = sum(1 for c in controllers if c["method"] == "StartNotify")
    clients = result["clients"]
    return "\n".join([
        f"soak: {result['seconds']} s, {result['controllers']} controllers ({start_notify} through StartNotify): "
        f"{sent} packets sent in {segments} segments, {out} ABS_X events out",
        f"soak: {result['reconnects']} reconnects ({result['failed_connect_attempts']} connect attempts failed "
        f"while out of range); reloads: {result['reloads']['applied']} applied "
        f"({result['devices_replaced']} device replacements), {result['reloads']['refused']} invalid and refused",
        f"soak: {sum(clients.values())} control clients: "
        + ", ".join(f"{kind} {count}" for kind, count in sorted(clients.items())),
        f"soak: from {result['figures_from_s']} s to the end: fds {result['fds_start']} -> {result['fds_end']}, "
        f"RSS {result['rss_start_mb']} -> {result['rss_end_mb']} MB ({result['rss_growth_mb']:+.3f})",
    ])

