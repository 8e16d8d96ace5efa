"""What a scenario gets: the emulator, BlueZ, bluetoothd, the bridge, input
devices, and a place for figures."""
from __future__ import annotations

import os
import subprocess
import time

from bluez import BlueZ
from emulator_client import EmulatorClient, RigError
from processes import BLUETOOTHD, Process

SCENARIOS: list["Scenario"] = []


class Skip(Exception):
    """A scenario that cannot run yet; only allowed in development runs."""


class Scenario:
    def __init__(self, function, name: str, needs: tuple[str, ...], udev: bool) -> None:
        self.function = function
        self.name = name
        self.needs = needs
        self.udev = udev
        self.doc = (function.__doc__ or "").strip().splitlines()[0] if function.__doc__ else ""


def scenario(name: str, needs: tuple[str, ...] = (), udev: bool = False):
    """Registers a scenario. `needs` names the bridge subcommands it uses:
    while the built bridge lacks one, the scenario is skipped with that reason."""
    def register(function):
        SCENARIOS.append(Scenario(function, name, needs, udev))
        return function
    return register


class Rig:
    def __init__(self) -> None:
        self.logs = os.environ.get("E2E_LOGS", "/run/e2e")
        self.repo = os.environ["E2E_REPO"]
        self.bin = os.environ["E2E_BIN"]
        self.e2e = os.path.join(self.repo, "Tests", "e2e")
        self.python = os.path.join(os.environ.get("VIRTUAL_ENV", ""), "bin", "python3")
        self.figures: list[str] = []
        self.processes: list[Process] = []
        self.bluetoothd: Process | None = None
        self.controllers: dict[str, str] = {}
        self.config_home = os.path.join(self.logs, "config")
        self._bridge_commands: set[str] | None = None

    # Set-up --------------------------------------------------------------
    def start(self) -> None:
        started = time.monotonic()
        self.emulator = EmulatorClient(os.path.join(self.logs, "emulator.sock"),
                                       pid_file=os.path.join(self.logs, "emulator.pid"))
        self.emulator.request("ping")
        self.figure(f"emulator ready after waiting {time.monotonic() - started:.1f} s")
        self.start_bluetoothd()

    def start_bluetoothd(self, debug: bool = False) -> None:
        """Starts bluetoothd; `debug` (or E2E_DEBUG) adds -d, whose lines a scenario may read."""
        if self.bluetoothd is not None and not self.bluetoothd.alive():
            self.bluetoothd.stop()  # it stopped by itself: its exit status goes in its log
        argv = [BLUETOOTHD, "-n"]
        if debug or os.environ.get("E2E_DEBUG"):
            argv.append("-d")
        self.bluetoothd = Process("bluetoothd", argv, self.logs)
        self.bluez = BlueZ()
        self.bluez.wait(lambda: self._bluez_up(), 30, "bluetoothd on the system bus")
        self.adapter = self.bluez.wait_adapter()
        self.bluez.power_adapter(self.adapter)

    def _bluez_up(self) -> bool:
        if not self.bluetoothd or not self.bluetoothd.alive():
            raise RigError("bluetoothd exited (see bluetoothd.log)")
        self.bluez.reconnect()
        return self.bluez.bus.name_has_owner("org.bluez")

    def restart_bluetoothd(self, debug: bool = False) -> None:
        """Stops bluetoothd and starts it again (it reads its configuration files at start)."""
        if self.bluetoothd:
            self.bluetoothd.stop()
            self.bluetoothd = None
        self.start_bluetoothd(debug=debug)

    def kill_bluetoothd(self) -> None:
        if self.bluetoothd:
            self.bluetoothd.kill()
            self.bluetoothd = None

    def close(self) -> None:
        self.reset()
        if self.bluetoothd:
            self.bluetoothd.stop()
        try:
            self.emulator.request("quit", timeout=5)
        except Exception:
            pass

    def reset(self) -> None:
        """Between scenarios: processes stopped, controllers off and at rest,
        config removed, bluetoothd running. Bonds stay (pairing costs seconds
        under emulation): a scenario that needs a fresh pairing removes them."""
        for process in self.processes:
            process.stop()
        self.processes.clear()
        for name in self.controllers:
            self.emulator.request("stop", name=name)
            self.emulator.request("power", name=name, on=False)
        if self.bluetoothd is None or not self.bluetoothd.alive():
            self.start_bluetoothd()
        subprocess.run(["rm", "-rf", self.config_home], check=False)

    # The emulator -------------------------------------------------------------
    def controller(self, name: str, address: str, powered: bool = True, **options) -> str:
        """An emulated controller named `name` (made once, powered on here)."""
        if name not in self.controllers:
            self.emulator.request("add", name=name, address=address, powered=powered, **options)
            self.controllers[name] = address
        elif powered:
            self.emulator.request("power", name=name, on=True)
        return address

    def play(self, name: str, timeline: str) -> float:
        """Plays Tests/e2e/timelines/<timeline>.tl (or inline text); returns its length in s."""
        if "\n" in timeline:
            reply = self.emulator.request("play", name=name, text=timeline, label="inline")
        else:
            path = os.path.join(self.e2e, "timelines", timeline + ".tl")
            reply = self.emulator.request("play", name=name, file=path, label=timeline)
        return reply["end_ms"] / 1000

    def emulator_state(self, name: str) -> dict:
        return self.emulator.request("state", name=name)

    def check_nothing_forbidden(self, since: int) -> None:
        """Fails when, since `since`, anything wrote to a controller's firmware-update
        service (0xFEF5) or sent a Gear VR a command never to send (such as `0200`,
        which would enter the firmware update)."""
        self.emulator.poll()
        for event in self.emulator.events[since:]:
            if event["event"] in ("firmware_write", "forbidden_command"):
                raise AssertionError(f"{event['name']}: {event['event']} {event.get('uuid', '')} "
                                     f"{event.get('value', '')}: never write that")

    # The bridge ---------------------------------------------------------------
    @property
    def bridge_path(self) -> str:
        return os.path.join(self.bin, "daydream-bridge")

    def bridge_commands(self) -> set[str]:
        if self._bridge_commands is None:
            if not os.path.exists(self.bridge_path):
                raise RigError(f"no bridge binary at {self.bridge_path}")
            result = subprocess.run([self.bridge_path, "--help"], capture_output=True, text=True, timeout=30)
            commands = set()
            in_commands = False
            for line in (result.stdout + result.stderr).splitlines():
                if line.strip().lower().startswith(("commands", "subcommands")):
                    in_commands = True
                    continue
                if in_commands:
                    words = line.split()
                    if not words:
                        if commands:
                            in_commands = False
                        continue
                    if line.startswith((" ", "\t")):
                        commands.add(words[0])
            self._bridge_commands = commands
        return self._bridge_commands

    def write_config(self, text: str) -> str:
        directory = os.path.join(self.config_home, "daydream-bridge")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, "config.toml")
        temporary = path + ".new"
        with open(temporary, "w", encoding="utf-8") as file:
            file.write(text)
        os.rename(temporary, path)  # an editor's atomic save
        return path

    def bridge(self, *args: str, name: str = "bridge") -> Process:
        env = dict(os.environ, XDG_CONFIG_HOME=self.config_home)
        process = Process(name, [self.bridge_path, *args], self.logs, env=env)
        self.processes.append(process)
        return process

    def program(self, name: str, argv: list[str]) -> Process:
        env = dict(os.environ, XDG_CONFIG_HOME=self.config_home, PYTHONUNBUFFERED="1")
        process = Process(name, argv, self.logs, env=env)
        self.processes.append(process)
        return process

    def rig_agent(self, timeout: float = 30.0) -> Process:
        """The rig's own NoInputNoOutput agent (for scenarios without the bridge)."""
        agent = self.program("agent", [self.python, os.path.join(self.e2e, "runner", "agent.py")])
        deadline = time.monotonic() + timeout
        while "agent ready" not in agent.log_text():  # this agent's, not an earlier one's in agent.log
            if not agent.alive() or time.monotonic() > deadline:
                raise RigError("the rig's agent did not register (see agent.log)")
            time.sleep(0.1)
        return agent

    def unready_bridge(self) -> str | None:
        """Why a failure is only the bridge being unfinished: a 'run' that
        exited saying it has no Bluetooth side yet. None otherwise."""
        from bridge_helpers import NOT_CONNECTED_YET
        for process in self.processes:
            if process.name.startswith("bridge") and not process.alive():
                if NOT_CONNECTED_YET in process.log_text():
                    return "this build of 'daydream-bridge run' has no Bluetooth connection manager yet"
        return None

    # Reporting ----------------------------------------------------------------
    def figure(self, text: str) -> None:
        print(f"    figure: {text}", flush=True)
        self.figures.append(text)
