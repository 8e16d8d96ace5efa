#!/usr/bin/python3
"""Runs the real daemon against emulated controllers and measures it.

What runs: a private dbus-daemon; the project's fake bluetoothd
(Tests/fake-bluez/fake_bluez.py, imported here) offering N paired Daydream
controllers, each handing out one end of a SOCK_SEQPACKET socketpair from
AcquireNotify, exactly as BlueZ does; and `daydream-bridge run --print` with
DAYDREAM_DBUS_ADDRESS pointing at the private bus, so it goes through its real
BlueZ client, pairing-free connect, GATT lookup, AcquireNotify, event loop,
controller model, mapping and output. This process feeds every socket at RATE
packets per second. Not exercised: the radio, the kernel's Bluetooth stack and
bluetoothd itself (the e2e rig covers those), and uinput itself (this machine
has no /dev/uinput). In its place, --sink says what the daemon writes to:

  pipe   (bench default) `run --write-events -`: every device frame checked as
         the uinput devices check it and written as raw input_events with one
         write(2) to a pipe this rig drains: the daemon's uinput work.
  print  (soak) `run --print`: one text line per event, which the soak parses
         to check sequence and count; the text formatting costs CPU that the
         uinput path does not.

Each packet moves the touch x by one count, and Benchmarks/daemon-load/soak.toml
maps the pad to a stick with no deadzone, so every packet gives exactly one
ABS_X event: the soak counts them per controller at the daemon's output.

soak: the daemon streams while controllers drop and reconnect, the config is
rewritten (valid and invalid in turn) and control-socket clients come and go;
one controller goes through StartNotify instead of AcquireNotify. Packets are
counted per stream segment; fds and RSS must stay flat (soak_run.py,
soak_tasks.py). A summary of what happened goes to stderr.

    daemon_load.py --bridge PATH bench [--load-seconds 30] [--idle-seconds 10] [--sink pipe|print]
    daemon_load.py --bridge PATH soak --seconds 600
    daemon_load.py --bridge STAND_IN floor [--load-seconds 30]

floor: the same feed into `STAND_IN --loop-floor FD...`, doing only the
kernel-facing work (one read per packet, one 48-byte write per packet into a
pipe) with no bridge code. STAND_IN is `daydream-bench` (the daemon's event
loop, in Swift) or `daydream-machine-floor` (the same in plain C: what this
machine charges for the load itself). No bus and no bluetoothd: the rig hands
the stand-in its socketpairs.

Prints one JSON object on stdout; exit status 1 when a soak check fails,
2 when the rig cannot run (the reason on stderr). Nothing is skipped.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "fake-bluez"))

import dbus.mainloop.glib  # noqa: E402  (Debian's python3-dbus)
from gi.repository import GLib  # noqa: E402
import fake_bluez  # noqa: E402
from soak_run import Soak  # noqa: E402

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>custom</type>
  <listen>unix:path={path}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/>
    <allow send_type="method_call"/><allow send_type="signal"/>
    <allow send_type="method_return"/><allow send_type="error"/>
    <allow receive_type="method_call"/><allow receive_type="signal"/>
    <allow receive_type="method_return"/><allow receive_type="error"/>
  </policy>
</busconfig>
"""

FE55 = "0000fe55-0000-1000-8000-00805f9b34fb"
FEF5 = "0000fef5-0000-1000-8000-00805f9b34fb"


class RigError(Exception):
    """The rig itself could not run (not a finding about the daemon)."""


def encode(seq, time_ms, touch_x, touch_y):
    """A packet at rest with the given counters and touch (see protocol.md)."""
    fields = [(time_ms % 512, 0, 9), (seq % 32, 9, 5), (520, 53 + 13, 13), (touch_x, 131, 8), (touch_y, 139, 8)]
    value = 0
    for field, start, width in fields:
        value |= (field & ((1 << width) - 1)) << (160 - start - width)
    return value.to_bytes(20, "big")


def feed_packets():
    """The feed: touch x walks 1..255 (one count per packet), y stays at 128."""
    period = 32 * 255
    return [encode(i, i * 10, 1 + i % 255, 128) for i in range(period)]


class Process:
    """/proc figures of one process, summed over its threads."""

    def __init__(self, pid):
        self.pid = pid

    def tasks(self):
        try:
            return os.listdir(f"/proc/{self.pid}/task")
        except FileNotFoundError:
            return []

    def cpu_ns(self):
        """Time on a CPU, all threads (schedstat: nanoseconds)."""
        total = 0
        for task in self.tasks():
            try:
                with open(f"/proc/{self.pid}/task/{task}/schedstat") as f:
                    total += int(f.read().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                pass
        return total

    def switches(self):
        """Voluntary plus involuntary context switches, all threads: each is a wake-up."""
        total = 0
        for task in self.tasks():
            try:
                with open(f"/proc/{self.pid}/task/{task}/status") as f:
                    for line in f:
                        if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                            total += int(line.split()[1])
            except (FileNotFoundError, ProcessLookupError):
                pass
        return total

    def status_kb(self, key):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        return 0

    def fd_count(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def threads(self):
        return len(self.tasks())


class Rig:
    """The daemon on a private bus with the fake bluetoothd. For the soak, its config is a copy it
    may rewrite, it has a control socket, and the last controller refuses AcquireNotify (so the
    daemon falls back to StartNotify)."""

    def __init__(self, bridge, controllers, rate, sink, soak=False):
        self.directory = tempfile.mkdtemp(prefix="daydream-load-")
        self.controllers = controllers
        self.interval = 1.0 / rate
        self.packets = feed_packets()
        self.sent = [0] * controllers
        self.abs_x = {}      # address -> ABS_X values but 0
        self.releases = {}   # address -> ABS_X 0 events (the daemon centring the stick on a release)
        self.bad_lines = 0
        self.buffered = b""
        self.sink = sink
        self.output_bytes = 0
        self.addresses = [f"C0:DD:EE:00:01:{index + 1:02X}" for index in range(controllers)]
        self.bus = self.start_bus()
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        self.loop = GLib.MainLoop()
        self.fake = fake_bluez.Fake(self.bus_address, "org.bluez")
        self.fake.connect()
        self.fake.start()
        fake_bluez.run_command(self.fake, {"cmd": "add_adapter"}, None)
        for index, address in enumerate(self.addresses):
            device = {"cmd": "add_device", "address": address, "name": "Daydream controller",
                      "paired": True, "trusted": True, "uuids": [FE55, FEF5]}
            if soak and index == controllers - 1:
                device["refuse_acquire"] = "org.bluez.Error.NotSupported"
            fake_bluez.run_command(self.fake, device, None)
        self.log_path = os.path.join(self.directory, "daemon.log")
        env = dict(os.environ, DAYDREAM_DBUS_ADDRESS=self.bus_address)
        env.pop("JOURNAL_STREAM", None)
        self.log = open(self.log_path, "wb")
        output = ["--print"] if sink == "print" else ["--write-events", "-"]
        self.config_path = os.path.join(ROOT, "Benchmarks", "daemon-load", "soak.toml")
        self.control_path = "none"
        if soak:
            shutil.copy(self.config_path, os.path.join(self.directory, "config.toml"))
            self.config_path = os.path.join(self.directory, "config.toml")
            self.control_path = os.path.join(self.directory, "control")
        self.daemon = subprocess.Popen(
            [bridge, "run", *output, "--socket", self.control_path, "--config", self.config_path],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log, env=env)
        self.process = Process(self.daemon.pid)
        os.set_blocking(self.daemon.stdout.fileno(), False)
        GLib.io_add_watch(self.daemon.stdout.fileno(), GLib.IO_IN | GLib.IO_HUP, self.read_output)

    def start_bus(self):
        config = os.path.join(self.directory, "bus.conf")
        with open(config, "w") as f:
            f.write(BUS_CONFIG.format(path=os.path.join(self.directory, "bus")))
        bus = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--nopidfile",
                                "--print-address"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.bus_address = bus.stdout.readline().decode().strip()
        if not self.bus_address:
            raise RigError("dbus-daemon did not start")
        return bus

    def sockets(self):
        """Each controller's end of its notify socket, None until the daemon has acquired it."""
        found = []
        for address in self.addresses:
            try:
                found.append(self.fake.device(address).characteristic(fake_bluez.INPUT).socket)
            except KeyError:  # not connected yet: its GATT objects are made on connect
                found.append(None)
        return found

    def run_for(self, seconds, until=None):
        """Runs the GLib loop for `seconds`, or until `until()` holds; returns whether it held."""
        deadline = time.monotonic() + seconds
        context = self.loop.get_context()
        while time.monotonic() < deadline:
            if until is not None and until():
                return True
            context.iteration(False) or time.sleep(0.002)
            if self.daemon.poll() is not None:
                raise RigError(f"the daemon exited with status {self.daemon.returncode}; see its log:\n" + self.log_tail())
        return until() if until is not None else True

    def check_alive(self):
        if self.daemon.poll() is not None:
            raise RigError(f"the daemon exited with status {self.daemon.returncode}; see its log:\n" + self.log_tail())

    def wait_until(self, condition, timeout, what):
        if not self.run_for(timeout, condition):
            raise RigError(f"not {what} in {timeout} s; the daemon's log:\n" + self.log_tail())

    def wait_connected(self, timeout=30):
        if not self.run_for(timeout, lambda: None not in self.sockets()):
            connected = sum(sock is not None for sock in self.sockets())
            raise RigError(f"only {connected} of {self.controllers} controllers acquired their notify socket "
                           f"in {timeout} s; the daemon's log:\n" + self.log_tail())

    def feed(self, seconds):
        """Sends RATE packets a second to every controller for `seconds`, catching up after a late tick."""
        sockets = self.sockets()
        base = list(self.sent)
        start = time.monotonic()
        end = start + seconds
        context = self.loop.get_context()
        while True:
            now = time.monotonic()
            due = int((min(now, end) - start) / self.interval)
            for index, sock in enumerate(sockets):
                while self.sent[index] < base[index] + due:
                    sock.send(self.packets[self.sent[index] % len(self.packets)])
                    self.sent[index] += 1
            while context.pending():
                context.iteration(False)
            if now >= end:
                break
            next_due = start + (due + 1) * self.interval
            time.sleep(max(0.0, min(next_due, end) - time.monotonic()))
        if self.daemon.poll() is not None:
            raise RigError(f"the daemon exited with status {self.daemon.returncode}:\n" + self.log_tail())

    def read_output(self, fd, condition):
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        self.output_bytes += len(chunk)
        if self.sink != "print":
            return True
        self.buffered += chunk
        lines = self.buffered.split(b"\n")
        self.buffered = lines.pop()
        for line in lines:
            # TIME ADDRESS DEVICE TYPE CODE VALUE
            parts = line.split()
            if len(parts) != 6:
                self.bad_lines += 1
                continue
            if parts[3] == b"EV_ABS" and parts[4] == b"ABS_X":
                address, value = parts[1].decode(), int(parts[5])
                if value:
                    self.abs_x.setdefault(address, []).append(value)
                else:
                    self.releases[address] = self.releases.get(address, 0) + 1
        return True

    def log_tail(self):
        self.log.flush()
        with open(self.log_path, "rb") as f:
            return f.read()[-3000:].decode(errors="replace")

    def close(self, keep_log=None):
        """Stops everything; `keep_log` names a file to keep the daemon's log in."""
        if self.daemon.poll() is None:
            self.daemon.terminate()
            try:
                self.daemon.wait(10)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
        self.bus.terminate()
        self.bus.wait()
        self.log.close()
        if keep_log:
            shutil.copy(self.log_path, keep_log)
        shutil.rmtree(self.directory, ignore_errors=True)


class FloorRig(Rig):
    """The feed without the daemon: socketpairs handed to the loop-floor stand-in."""

    def __init__(self, stand_in, controllers, rate):  # pylint: disable=super-init-not-called
        self.directory = tempfile.mkdtemp(prefix="daydream-floor-")
        self.controllers = controllers
        self.interval = 1.0 / rate
        self.packets = feed_packets()
        self.sent = [0] * controllers
        self.sink = "pipe"
        self.output_bytes = 0
        self.buffered = b""
        self.bus = None
        self.loop = GLib.MainLoop()
        pairs = [socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET) for _ in range(controllers)]
        self.feeding = [ours for ours, _ in pairs]
        theirs = [their for _, their in pairs]
        self.log_path = os.path.join(self.directory, "floor.log")
        self.log = open(self.log_path, "wb")
        self.daemon = subprocess.Popen(
            [stand_in, "--loop-floor", *[str(their.fileno()) for their in theirs]],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log,
            pass_fds=[their.fileno() for their in theirs])
        for their in theirs:
            their.close()
        self.process = Process(self.daemon.pid)
        os.set_blocking(self.daemon.stdout.fileno(), False)
        GLib.io_add_watch(self.daemon.stdout.fileno(), GLib.IO_IN | GLib.IO_HUP, self.read_output)

    def sockets(self):
        return self.feeding

    def close(self):
        for ours in self.feeding:
            ours.close()
        try:
            self.daemon.wait(10)
        except subprocess.TimeoutExpired:
            self.daemon.kill()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def measure_load(rig, load_seconds, settle_seconds):
    """Feeds every controller for `load_seconds` after a 2 s warm-up (first
    events, lazily made buffers) and returns the load's figures; waits
    `settle_seconds` after it so the last packets are through."""
    rig.feed(2)
    rig.run_for(0.2)
    sent_before, output_before = sum(rig.sent), rig.output_bytes
    cpu_before, wall_before, switches_before = rig.process.cpu_ns(), time.monotonic(), rig.process.switches()
    rig.feed(load_seconds)
    cpu = rig.process.cpu_ns() - cpu_before
    wall = time.monotonic() - wall_before
    switches = rig.process.switches() - switches_before
    packets = sum(rig.sent) - sent_before
    rig.run_for(settle_seconds)
    output = rig.output_bytes - output_before
    return {
        "controllers": rig.controllers,
        "packets_per_second": round(packets / wall, 1),
        "load_seconds": round(wall, 2),
        "cpu_percent": round(cpu / 1e9 / wall * 100, 3),
        "cpu_us_per_packet": round(cpu / 1e3 / packets, 2) if packets else None,
        # Each context switch under load is one sleep in epoll_wait and one wake-up.
        "wakeups_per_packet": round(switches / packets, 3) if packets else None,
        # pipe: 24-byte input_events (ABS_X + SYN_REPORT per packet); print: text lines.
        "output_bytes_per_packet": round(output / packets, 2) if packets else None,
    }


def floor(rig, load_seconds):
    return measure_load(rig, load_seconds, settle_seconds=0.5)


def bench(rig, load_seconds, idle_seconds):
    rig.wait_connected()
    figures = measure_load(rig, load_seconds, settle_seconds=1)  # then count quiet wake-ups
    switches_before = rig.process.switches()
    time.sleep(idle_seconds)
    switches = rig.process.switches() - switches_before
    figures.update({
        "peak_rss_mb": round(rig.process.status_kb("VmHWM") / 1024, 2),
        # RSS is mostly shared library text (Swift runtime, libstdc++, libc); the daemon's own memory:
        "rss_anon_mb": round(rig.process.status_kb("RssAnon") / 1024, 2),
        "idle_seconds": idle_seconds,
        "idle_wakeups_per_s": round(switches / idle_seconds, 2),
        "threads": rig.process.threads(),
        "sink": rig.sink,
    })
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bridge", required=True, help="the daydream-bridge binary (floor: daydream-bench or daydream-machine-floor)")
    parser.add_argument("--controllers", type=int, default=4)
    parser.add_argument("--rate", type=float, default=100.0, help="packets per second per controller")
    sub = parser.add_subparsers(dest="mode", required=True)
    bench_parser = sub.add_parser("bench")
    bench_parser.add_argument("--load-seconds", type=float, default=30)
    bench_parser.add_argument("--idle-seconds", type=float, default=10)
    bench_parser.add_argument("--sink", choices=["pipe", "print"], default="pipe",
                              help="what the daemon writes its events to (see above)")
    soak_parser = sub.add_parser("soak")
    soak_parser.add_argument("--seconds", type=int, default=600)
    floor_parser = sub.add_parser("floor")
    floor_parser.add_argument("--load-seconds", type=float, default=30)
    options = parser.parse_args()

    rig = None
    result = None
    try:
        if options.mode == "floor":
            rig = FloorRig(options.bridge, options.controllers, options.rate)
            result = floor(rig, options.load_seconds)
        elif options.mode == "bench":
            rig = Rig(options.bridge, options.controllers, options.rate, options.sink)
            result = bench(rig, options.load_seconds, options.idle_seconds)
        else:
            rig = Rig(options.bridge, options.controllers, options.rate, "print", soak=True)
            result = Soak(rig, options.seconds, options.bridge).run()
    except RigError as error:
        print(f"daemon-load: {error}", file=sys.stderr)
        print(json.dumps({"error": str(error).split("\n")[0]}))
        return 2
    finally:
        if rig is not None and result is None:
            rig.close()
    failed = bool(result.get("problems"))
    # A failed soak keeps the daemon's log next to the build, for the why.
    kept = os.path.join(ROOT, ".build", "soak-daemon.log") if failed and options.mode == "soak" else None
    if kept:
        rig.close(keep_log=kept)
    else:
        rig.close()
    print(json.dumps(result))
    if failed:
        for problem in result["problems"]:
            print(f"soak: {problem}", file=sys.stderr)
        if kept:
            print(f"soak: the daemon's log is in {kept}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
