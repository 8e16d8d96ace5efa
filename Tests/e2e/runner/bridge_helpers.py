"""What the bridge scenarios share: names the bridge gives its devices, the
stick formula the default profile documents, pairing through the bridge,
starting it, and playing a timeline while reading the virtual devices."""
from __future__ import annotations

import math
import os
import re
import select
import socket
import subprocess
import time
import tomllib

from bluez import DEVICE, device_path
from input_devices import Frame, InputDevice, list_devices, read_many, wait_for_device
from rig import Rig, Skip

GAMEPAD = "Daydream Controller Gamepad"
MOUSE = "Daydream Controller Mouse"
KEYBOARD = "Daydream Controller Keyboard"
# identity = "dualsense": the pad node hid-playstation makes for the bridge's uhid device.
DUALSENSE = "Daydream Controller DualSense"


def _round_half_away(value: float) -> int:
    return int(math.floor(value + 0.5)) if value >= 0 else -int(math.floor(-value + 0.5))


def stick_axis(value: float) -> int:
    clamped = min(1.0, max(-1.0, value))
    return _round_half_away(clamped * 32767 if clamped >= 0 else clamped * 32768)


def stick(touch_x: int, touch_y: int, deadzone: float = 0.1, saturation: float = 0.9) -> tuple[int, int]:
    """ABS_X, ABS_Y for a finger at raw (x, y) in the default profile's
    `mode = "stick"` (circle): the config's documented geometry, centre
    (0.5, 0.5), radius 0.5, output growing from the dead zone's edge to
    full at `saturation`."""
    x = (touch_x / 255 - 0.5) * 2
    y = (touch_y / 255 - 0.5) * 2
    radius = math.sqrt(x * x + y * y)
    if radius <= deadzone:
        return 0, 0
    magnitude = min(1.0, (radius - deadzone) / max(saturation - deadzone, 1e-6))
    return stick_axis(x / radius * magnitude), stick_axis(y / radius * magnitude)


def default_stick(rig) -> dict:
    with open(os.path.join(rig.repo, "config", "default.toml"), "rb") as file:
        touchpad = tomllib.load(file)["profile"]["gamepad"]["touchpad"]
    assert touchpad["mode"] == "stick" and touchpad.get("shape", "circle") == "circle", touchpad
    return {"deadzone": touchpad.get("deadzone", 0.1), "saturation": touchpad.get("saturation", 0.9)}


def expected_gamepad_frames(rig) -> list[list[str]]:
    """What timelines/gamepad.tl gives on the gamepad with the shipped default config."""
    options = default_stick(rig)
    frames, axes = [], (0, 0)
    for point in ((255, 128), (128, 0), (40, 215), (128, 128)):
        value = stick(*point, **options)
        frame = [f"ABS_{axis} {new}" for axis, new, old in zip("XY", value, axes) if new != old]
        if frame:
            frames.append(frame)
        axes = value
    for button in ("BTN_SOUTH", "BTN_EAST", "BTN_TR", "BTN_TL", "BTN_MODE", "BTN_START"):
        frames += [[f"{button} 1"], [f"{button} 0"]]
    return frames


def check_classes(pad_props: dict, mouse_props: dict, key_props: dict) -> None:
    """udev's classes for the three devices: the gamepad is a joystick and
    nothing else, the mouse a mouse, the keyboard keys."""
    assert pad_props.get("ID_INPUT_JOYSTICK") == "1", f"gamepad: {pad_props}"
    for wrong in ("ID_INPUT_MOUSE", "ID_INPUT_TOUCHPAD", "ID_INPUT_TABLET", "ID_INPUT_ACCELEROMETER", "ID_INPUT_KEYBOARD"):
        assert wrong not in pad_props, f"the gamepad is also {wrong}: {pad_props}"
    assert mouse_props.get("ID_INPUT_MOUSE") == "1", f"mouse: {mouse_props}"
    assert "ID_INPUT_JOYSTICK" not in mouse_props, f"the mouse is also a joystick: {mouse_props}"
    assert key_props.get("ID_INPUT_KEY") == "1", f"keyboard: {key_props}"
    assert "ID_INPUT_JOYSTICK" not in key_props and "ID_INPUT_MOUSE" not in key_props, f"keyboard: {key_props}"


def run_bridge_command(rig: Rig, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CONFIG_HOME=rig.config_home)
    started = time.monotonic()
    result = subprocess.run([rig.bridge_path, *args], capture_output=True, text=True,
                            timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    with open(os.path.join(rig.logs, "bridge-commands.log"), "a") as log:
        log.write(f"--- daydream-bridge {' '.join(args)} -> {result.returncode} "
                  f"({time.monotonic() - started:.1f} s)\n{result.stdout}{result.stderr}")
    return result


def ensure_paired(rig: Rig, name: str, address: str) -> None:
    """The controller powered on and paired with BlueZ, through `daydream-bridge pair`
    when it is not paired already (scenarios may run alone)."""
    rig.controller(name, address)
    path = device_path(address, rig.adapter)
    state = rig.emulator_state(name)
    if state["bonds"] and rig.bluez.get_or_none(path, DEVICE, "Bonded"):
        return
    if "pair" not in rig.bridge_commands():
        raise Skip("the bridge has no 'pair' command yet")
    mark = rig.emulator.mark()
    started = time.monotonic()
    result = run_bridge_command(rig, "pair", address)
    assert result.returncode == 0, \
        f"daydream-bridge pair {address} exited {result.returncode}:\n{result.stdout}{result.stderr}"
    rig.emulator.wait_event("paired", name, since=mark, timeout=5)
    assert rig.bluez.get(path, DEVICE, "Paired") and rig.bluez.get(path, DEVICE, "Bonded"), \
        "BlueZ does not show the controller paired and bonded after 'daydream-bridge pair'"
    rig.figure(f"daydream-bridge pair {address}: {time.monotonic() - started:.1f} s")


# What a bridge built without its Bluetooth side says when asked to run.
NOT_CONNECTED_YET = "no Bluetooth connection manager"


def _exited(process) -> None:
    """Raises for a bridge that has exited: a skip for a build without its
    Bluetooth side, else a failure with the end of its log."""
    log = process.log_text()
    if NOT_CONNECTED_YET in log:
        raise Skip("this build of 'daydream-bridge run' has no Bluetooth connection manager yet")
    raise AssertionError(f"daydream-bridge run exited ({process.process.returncode}):\n{log[-2000:]}")


def _control_socket(process) -> str:
    """The control socket the bridge says (with -v) it listens on, before "running with"."""
    log = process.log_text()
    found = re.search(r"control socket at (\S+)", log)
    assert found, f"daydream-bridge run -v named no control socket before running:\n{log[-2000:]}"
    return found.group(1)


def _ask_status(process, path: str, timeout: float) -> list[str]:
    """Sends `status` to the bridge's control socket and returns the reply's lines.
    The socket listens before "running with", but the bridge answers only from its
    event loop, which it enters once its Bluetooth side is started (connected to
    the system bus, following BlueZ): an answer says it is past every startup exit."""
    deadline = time.monotonic() + timeout
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        try:
            connection.connect(path)
            connection.sendall(b"status\n")
        except OSError as error:
            if not process.alive():
                _exited(process)
            raise AssertionError(f"daydream-bridge run said 'running with' but its control socket {path} "
                                 f"does not take a request ({error}):\n{process.log_text()[-2000:]}") from None
        reply = b""
        while True:
            if not process.alive():
                _exited(process)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"daydream-bridge run did not answer 'status' on {path} within {timeout:.0f} s "
                                     f"(its event loop is not running):\n{process.log_text()[-2000:]}")
            readable, _, _ = select.select([connection], [], [], min(remaining, 0.2))
            if not readable:
                continue
            try:
                chunk = connection.recv(4096)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                break
            reply += chunk
    lines = reply.decode(errors="replace").splitlines()
    if not lines and not process.alive():
        _exited(process)
    assert lines and lines[0] == "ok", f"daydream-bridge run answered 'status' on {path} with {lines}"
    return lines[1:]


def start_bridge(rig: Rig, config: str | None = None, name: str = "bridge", timeout: float = 30.0):
    """`daydream-bridge run -v` with the given config text (or the built-in one),
    once it is running: its log says "running with" (its first set of devices
    is made, its control socket listens, its signals are handled) and its
    control socket answers `status` (it is in its event loop, so its Bluetooth
    side has started). A bridge that exits first fails with its log (or skips,
    for a build without its Bluetooth side); so does one not running within
    `timeout` s."""
    if config is not None:
        rig.write_config(config)
    process = rig.bridge("run", "-v", name=name)
    deadline = time.monotonic() + timeout
    while "running with" not in process.log_text():
        if not process.alive():
            _exited(process)
        if time.monotonic() > deadline:
            raise AssertionError(f"daydream-bridge run -v did not say 'running with' within {timeout:.0f} s:\n"
                                 f"{process.log_text()[-2000:]}")
        time.sleep(0.1)
    _ask_status(process, _control_socket(process), max(1.0, deadline - time.monotonic()))
    return process


def start_streaming(rig: Rig, name: str, address: str, config: str | None = None):
    """The scenarios' usual start: `name` paired (`ensure_paired`), the bridge started with
    `config` (`start_bridge`), and the controller streaming to it (`wait_streaming` since
    before the start); the bridge's process."""
    ensure_paired(rig, name, address)
    mark = rig.emulator.mark()
    process = start_bridge(rig, config)
    wait_streaming(rig, name, since=mark)
    return process


def start_streaming_to(rig: Rig, name: str, address: str, config: str, device: str, product: int) -> InputDevice:
    """`start_streaming` for a config that makes the bridge's device called `device`: that
    device (waited for up to 30 s once the bridge runs, before the stream is), checked to carry
    the project's id with `product` (0006:da7d:PRODUCT); closed again when any of that fails."""
    ensure_paired(rig, name, address)
    mark = rig.emulator.mark()
    start_bridge(rig, config)
    found = wait_for_device(lambda n: n == device, timeout=30)
    try:
        wait_streaming(rig, name, since=mark)
        info = found.device.info
        assert (info.bustype, info.vendor, info.product) == (0x06, 0xDA7D, product), f"{device} device id: {info}"
    except BaseException:
        found.close()
        raise
    return found


# The bridge's own words, one line each, about one controller: the daemon took it on (a
# new session, or its session attached again after a drop; "back" is a -v line), or its
# session released everything because the link went down.
_TAKEN_ON = re.compile(r"^(?:<\d>)?([0-9A-F:]{17}): (?:controller connected|back)\b", re.IGNORECASE)
_LET_GO = re.compile(r"^(?:<\d>)?([0-9A-F:]{17}): disconnected; everything released", re.IGNORECASE)


def _taken_on(process, address: str) -> bool:
    """Whether, by its own log, this bridge has the controller at `address` (in
    capitals) now: its last line about taking it on comes after its last line
    about letting it go."""
    state = False
    for line in process.log_text().splitlines():
        for pattern, value in ((_TAKEN_ON, True), (_LET_GO, False)):
            found = pattern.match(line)
            if found and found.group(1).upper() == address:
                state = value
    return state


def _check_running(bridges: list) -> None:
    """Fails (with its log) for a bridge of these that has exited."""
    for process in bridges:
        if not process.alive():
            _exited(process)


def wait_streaming(rig: Rig, name: str, since: int, timeout: float = 60.0) -> float:
    """Waits until the bridge has subscribed to the controller's input over a
    bonded, encrypted link (the emulator's "subscribed" after `since`), and has
    taken the controller on: its session is attached to the controller's feed, so
    every packet from now on reaches the virtual devices (its log says "ADDRESS:
    controller connected" or "back", after any "disconnected; everything released"
    for it). The first set of devices exists from the start; a further
    controller's set is made before that line. Fails when the bridge exits, or
    when that line has not come 10 s after the subscription. Returns when the
    subscription was seen (monotonic s)."""
    bridges = [p for p in rig.processes if p.name.startswith("bridge") and p.alive()]
    assert bridges, f"wait_streaming({name}): no bridge is running " \
        f"({', '.join(f'{p.name} exited {p.process.returncode}' for p in rig.processes) or 'none started'})"
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        try:
            rig.emulator.wait_event("subscribed", name, since=since, timeout=min(1.0, max(0.0, remaining)), on=True)
            break
        except AssertionError as error:
            _check_running(bridges)  # a bridge that died fails now, with its log, not at the deadline
            if remaining <= 1.0:
                raise AssertionError(f"{name} not subscribed within {timeout:.0f} s ({error})") from None
    deadline = time.monotonic() + 10
    while True:
        state = rig.emulator_state(name)
        if any(c["subscribed"] and c["encrypted"] and c["bonded"] for c in state["connections"]):
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"subscribed but not on a bonded, encrypted link: {state}")
        time.sleep(0.1)
    subscribed = time.monotonic()
    address = rig.controllers[name].upper()
    deadline = time.monotonic() + 10
    while not any(_taken_on(process, address) for process in bridges):
        _check_running(bridges)
        if time.monotonic() > deadline:
            tails = "\n".join(f"--- {p.name}.log (this run of it):\n{p.log_text()[-2000:]}" for p in bridges)
            raise AssertionError(f"{name} ({address}) is subscribed, but 10 s later the bridge has not taken it on "
                                 f"(no '{address}: controller connected' or 'back' after its last "
                                 f"'disconnected; everything released'):\n{tails}")
        time.sleep(0.05)
    return subscribed


def _started(rig: Rig, name: str, mark: int) -> int:
    return rig.emulator.wait_event("play_started", name, since=mark, timeout=5)["t_ns"]


def play_and_read(rig: Rig, name: str, timeline: str, devices: list[InputDevice],
                  settle: float = 0.8) -> tuple[int, dict[InputDevice, list[Frame]]]:
    """Plays a timeline and reads until it has finished and `settle` s passed."""
    for device in devices:
        device.drain()
    mark = rig.emulator.mark()
    length = rig.play(name, timeline)
    frames = read_many(devices, length + settle)
    rig.emulator.wait_event("play_finished", name, since=mark, timeout=30)
    more = read_many(devices, 5, until_quiet=settle)
    for device in devices:
        frames[device] += more[device]
    return _started(rig, name, mark), frames


def gamepad(rig: Rig, exclude=(), timeout: float = 30.0) -> InputDevice:
    """The bridge's gamepad, when the scenario has one controller paired (the
    scenarios unpair any other they pair, so only one gamepad can exist)."""
    device = wait_for_device(lambda n: n == GAMEPAD, timeout=timeout, exclude=exclude)
    others = [path for path, name in list_devices().items()
              if name == GAMEPAD and path != device.path and path not in exclude]
    if others:
        device.close()
        raise AssertionError(f"more than one gamepad ({device.path}, {', '.join(others)}): "
                             "a controller of another scenario is still paired")
    return device


def unpair(rig: Rig, name: str, address: str) -> None:
    """Removes the controller from BlueZ and forgets the bond on its side."""
    from bluez import ADAPTER
    import dbus
    path = device_path(address, rig.adapter)
    try:
        rig.bluez.call(rig.adapter, ADAPTER, "RemoveDevice", dbus.ObjectPath(path))
    except dbus.DBusException:
        pass
    rig.emulator.request("power", name=name, on=False)
    rig.emulator.request("forget_bonds", name=name)


def relative(frames: list[Frame], start_ns: int, code: str) -> list[tuple[float, int]]:
    """(ms after start, value) of every `code` event."""
    values = []
    for frame in frames:
        for event in frame.events:
            name, value = event.rsplit(" ", 1)
            if name == code:
                values.append(((frame.t_ns - start_ns) / 1e6, int(value)))
    return values


def bridge_devices(rig) -> tuple[InputDevice, InputDevice, InputDevice]:
    """The bridge's gamepad, mouse and keyboard (the default config makes all three)."""
    pad = wait_for_device(lambda n: n == GAMEPAD, timeout=30)
    mouse = wait_for_device(lambda n: n == MOUSE, timeout=10)
    keyboard = wait_for_device(lambda n: n == KEYBOARD, timeout=10)
    return pad, mouse, keyboard
