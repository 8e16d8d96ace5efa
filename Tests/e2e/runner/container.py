"""A machine booted with systemd as PID 1 inside the guest: `systemd-nspawn --boot` of a
writable overlay over the guest's root (the host's file system, read-only), so a unit runs
exactly as systemd runs it on an installed system, while the kernel (uinput, uhid, Bluetooth)
and udev stay the guest's. It shares the guest's network (its loopback is the guest's), sees
the guest's /dev/uinput and /dev/uhid, and has its own D-Bus and services."""
from __future__ import annotations

import os
import subprocess
import time

from processes import Process

# Boots to basic.target (journald, D-Bus) and nothing else of the host's: no timers' work, no
# database servers the host happens to enable.
TARGET = """[Unit]
Description=daydream-bridge e2e: a booted system with D-Bus, nothing more
Requires=basic.target
After=basic.target
AllowIsolate=yes
"""


class Container:
    def __init__(self, rig, name: str = "daydream-units") -> None:
        self.rig = rig
        self.name = name
        self.base = "/run/e2e-container"
        self.root = os.path.join(self.base, "root")
        self.process: Process | None = None
        self.leader: int | None = None
        self.log = os.path.join(rig.logs, "container-commands.log")

    # Life ----------------------------------------------------------------------
    def start(self, timeout: float = 120.0) -> None:
        """The overlay mounted, the test target written into it, the container booted, and
        `systemctl is-system-running --wait` saying "running"."""
        subprocess.run(["modprobe", "overlay"], check=False, capture_output=True)
        for sub in ("upper", "work", "root"):
            os.makedirs(os.path.join(self.base, sub), exist_ok=True)
        options = f"lowerdir=/,upperdir={self.base}/upper,workdir={self.base}/work"
        mounted = subprocess.run(["mount", "-t", "overlay", "overlay", "-o", options, self.root],
                                 capture_output=True, text=True)
        assert mounted.returncode == 0, f"could not mount the container's overlay: {mounted.stderr.strip()}"
        self.write("/etc/systemd/system/e2e.target", TARGET)
        argv = ["systemd-nspawn", "--directory", self.root, "--boot", "--register=no", "--keep-unit",
                "--machine", self.name,
                # bluetoothd opens the kernel's Bluetooth management socket.
                "--capability=CAP_NET_ADMIN",
                "--bind=/dev/uinput", "--bind=/dev/uhid",
                # The repository and the built binaries where the guest has them: the overlay shows
                # the host's tree, but nspawn puts a fresh tmpfs on the container's /tmp.
                f"--bind-ro={self.rig.repo}", f"--bind-ro={self.rig.bin}",
                "systemd.unit=e2e.target"]
        self.process = Process("container", argv, self.rig.logs)
        self.rig.processes.append(self.process)
        deadline = time.monotonic() + timeout
        while self.leader is None:
            assert self.process.alive(), f"systemd-nspawn exited:\n{self.process.log_text()[-3000:]}"
            self.leader = self._init_pid()
            if self.leader is None:
                assert time.monotonic() < deadline, "systemd-nspawn started no init"
                time.sleep(0.1)
        # systemctl answers once PID 1 has its private socket; until then it says "offline".
        state = ""
        while state != "running":
            result = self.run(["systemctl", "is-system-running", "--wait"], check=False,
                              timeout=max(1.0, deadline - time.monotonic()))
            state = result.stdout.strip()
            if state in ("", "offline") and time.monotonic() < deadline:
                time.sleep(0.2)
                continue
            assert state == "running", f"the container's systemd says {state!r}:\n" \
                f"{self.run(['systemctl', '--failed', '--no-pager'], check=False).stdout}"

    def _init_pid(self) -> int | None:
        """The container's PID 1 seen from the guest: nspawn's child once it has become systemd
        (before that it is nspawn's own fork, in no namespace of the container's yet)."""
        assert self.process is not None
        children = subprocess.run(["pgrep", "-P", str(self.process.process.pid)],
                                  capture_output=True, text=True).stdout.split()
        for child in children:
            try:
                with open(f"/proc/{child}/comm", encoding="utf-8") as file:
                    if file.read().strip() == "systemd":
                        return int(child)
            except FileNotFoundError:
                continue
        return None

    def stop(self, timeout: float = 60.0) -> None:
        """Powers the container off (nspawn turns SIGTERM into a clean shutdown) and removes the
        overlay with everything written into it."""
        if self.process is not None:
            self.process.stop(timeout=timeout)
            self.process = None
            self.leader = None
        subprocess.run(["umount", "--recursive", self.root], check=False, capture_output=True)
        subprocess.run(["rm", "-rf", self.base], check=False)

    # Inside --------------------------------------------------------------------
    def run(self, argv: list[str], user: str | None = None, check: bool = True,
            timeout: float = 60.0, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        """`argv` run inside the container (all its namespaces), as root or as `user`, with `env`
        added; logged to container-commands.log. A user's command gets the user's ids, groups and
        passwd environment (HOME, USER...) from setpriv: what runuser gives, without the PAM
        session that costs half a second a command under the guest's emulation."""
        assert self.leader is not None, "the container is not running"
        inner = list(argv)
        if env:
            inner = ["env", *(f"{key}={value}" for key, value in env.items()), *inner]
        if user is not None:
            inner = ["setpriv", "--reuid", user, "--regid", user, "--init-groups", "--reset-env", *inner]
        started = time.monotonic()
        result = subprocess.run(["nsenter", "--target", str(self.leader), "--all", "--", *inner],
                                capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        with open(self.log, "a", encoding="utf-8") as log:
            log.write(f"--- {' '.join(inner)} -> {result.returncode} ({time.monotonic() - started:.1f} s)\n"
                      f"{result.stdout}{result.stderr}")
        if check:
            assert result.returncode == 0, \
                f"in the container, {' '.join(inner)} exited {result.returncode}:\n{result.stdout}{result.stderr}"
        return result

    def write(self, path: str, text: str, owner: tuple[int, int] | None = None) -> None:
        """A file written into the container's tree (its overlay), directories made as needed."""
        full = os.path.join(self.root, path.lstrip("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as file:
            file.write(text)
        if owner is not None:
            os.chown(full, *owner)

    def journal(self, unit: str, user: str | None = None, lines: int = 40) -> str:
        """The end of `unit`'s journal (a user unit's with `user`)."""
        argv = ["journalctl", "--no-pager", "-n", str(lines), "-o", "cat"]
        argv += ["--user-unit" if user else "--unit", unit]
        return self.run(argv, check=False).stdout
