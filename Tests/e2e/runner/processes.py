"""Processes the runner starts in the guest: bluetoothd, the bridge, the
rig's agent. Each logs to a file under the logs directory."""
from __future__ import annotations

import os
import signal
import subprocess
import time

BLUETOOTHD = "/usr/libexec/bluetooth/bluetoothd"


class Process:
    def __init__(self, name: str, argv: list[str], logs: str, env: dict | None = None) -> None:
        self.name = name
        self.argv = argv
        self.log_path = os.path.join(logs, f"{name}.log")
        self.log = open(self.log_path, "ab", buffering=0)
        # The log is shared by every process of this name in the run (scenarios, repeats):
        # this one's own lines start here.
        self.log_offset = os.fstat(self.log.fileno()).st_size
        self.log.write(f"--- {time.monotonic():.3f} start: {' '.join(argv)}\n".encode())
        self.process = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, env=env)
        self.pid = self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def log_text(self) -> str:
        """What this process has logged so far, without the lines of earlier
        processes of the same name (the log file is appended to)."""
        with open(self.log_path, "rb") as file:
            file.seek(self.log_offset)
            return file.read().decode(errors="replace")

    def cpu_seconds(self) -> float:
        """utime + stime from /proc/PID/stat (valid while the process lives)."""
        with open(f"/proc/{self.pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # fields 14 and 15 of stat(5)
        return ticks / os.sysconf("SC_CLK_TCK")

    def stop(self, timeout: float = 10.0, sig: int = signal.SIGTERM) -> int | None:
        if self.alive():
            self.process.send_signal(sig)
            wait_or_kill(self.process, timeout)
        code = self.process.returncode
        self.log.write(f"--- {time.monotonic():.3f} exited: {code}\n".encode())
        return code

    def kill(self) -> None:
        self.stop(sig=signal.SIGKILL)


def log_since(process: Process, offset: int) -> str:
    """What `process` has logged from `offset` (a size of its log file) on."""
    with open(process.log_path, encoding="utf-8", errors="replace") as file:
        file.seek(offset)
        return file.read()


def wait_or_kill(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """Waits up to `timeout` seconds for `process`, told to stop, to exit; kills it after that."""
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def tail(path: str, lines: int = 40) -> str:
    try:
        with open(path, "rb") as file:
            file.seek(0, os.SEEK_END)
            size = file.tell()
            file.seek(max(0, size - 64 * 1024))
            text = file.read().decode(errors="replace")
    except OSError as error:
        return f"({path}: {error})"
    return "\n".join(text.splitlines()[-lines:])


def modprobe(module: str) -> None:
    """Loads a kernel module in the guest, or fails with modprobe's own words."""
    result = subprocess.run(["modprobe", module], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"modprobe {module}: {result.stderr.strip()}"


def unload_module(module: str) -> None:
    """Unloads a kernel module in the guest if it is loaded (modprobe -r), and checks it is gone
    and a module (not built in), so that something must load it again."""
    kind = subprocess.run(["modinfo", "--field=filename", module], capture_output=True, text=True, timeout=60)
    assert kind.returncode == 0 and kind.stdout.strip().startswith("/"), \
        f"{module} is not a loadable module of this kernel: {kind.stdout.strip()} {kind.stderr.strip()}"
    sys_name = module.replace("-", "_")
    if os.path.exists(f"/sys/module/{sys_name}"):
        result = subprocess.run(["modprobe", "--remove", module], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"modprobe --remove {module}: {result.stderr.strip()}"
    assert not os.path.exists(f"/sys/module/{sys_name}"), f"{module} still loaded after modprobe --remove"
