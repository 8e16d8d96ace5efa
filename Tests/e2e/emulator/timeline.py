"""Input timelines and recordings that drive an emulated controller.

A timeline file is one action a line; '#' starts a comment; times count
from the start of playback and take ms or s:

    rate 60                      # packets a second (default 60)
    at 0ms    touch 128 128      # finger at raw x, y (0..255; a Gear VR's 0..1023; 0 0 = no finger)
    at 100ms  touch 128 128 -> 255 128 over 200ms   # a straight path
    at 400ms  lift               # finger off
    at 500ms  press home         # click home app volume-up volume-down (a Gear VR: trigger back, no app)
    at 600ms  release home
    at 700ms  tap app 100ms      # press, and release 100 ms later
    at 0ms    gyro 0 40 0        # raw counts; also: orientation, accel
    at 0ms    status 8           # byte 19
    at 0ms    alternate click    # pressed in every other packet (latency runs); 'alternate none' stops
    at 900ms  power-off          # controller-level: drop the link, stop advertising
    at 2s     power-on           # ... and back, with nothing held
    at 3s     end                # playback ends (the stream goes on as it stands)

A recording (`daydream-bridge record`'s format, "# daydream-bridge recording
v1") is replayed as it is: its packets at their times, "disconnected" and
"connected" as power off and on.
"""
from __future__ import annotations

import dataclasses
import re

from packet import BUTTON_BITS, Packet

AT_REST_ACCELERATION = (0, 520, 11)  # counts, flat on a table (protocol.md)


class TimelineError(ValueError):
    pass


@dataclasses.dataclass
class State:
    touch: tuple[int, int] = (0, 0)
    buttons: int = 0
    orientation: tuple[int, int, int] = (0, 0, 0)
    acceleration: tuple[int, int, int] = AT_REST_ACCELERATION
    gyro: tuple[int, int, int] = (0, 0, 0)
    status: int = 0
    alternate: int = 0  # buttons pressed in every other packet only

    def packet(self, time_ms: int, seq: int) -> Packet:
        return Packet(
            time=time_ms, seq=seq,
            ori_x=self.orientation[0], ori_y=self.orientation[1], ori_z=self.orientation[2],
            acc_x=self.acceleration[0], acc_y=self.acceleration[1], acc_z=self.acceleration[2],
            gyro_x=self.gyro[0], gyro_y=self.gyro[1], gyro_z=self.gyro[2],
            touch_x=self.touch[0], touch_y=self.touch[1],
            buttons=self.buttons, status=self.status,
        )


@dataclasses.dataclass
class Action:
    at_ms: float
    kind: str
    args: tuple
    line: int


def parse_duration(text: str, where: str) -> float:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s)", text)
    if not match:
        raise TimelineError(f"{where}: '{text}' is not a duration like 250ms or 1.5s")
    value = float(match.group(1))
    return value * 1000 if match.group(2) == "s" else value


def _ints(words, count, low, high, where):
    if len(words) != count:
        raise TimelineError(f"{where}: expected {count} numbers, got {' '.join(words) or 'none'}")
    try:
        values = tuple(int(word) for word in words)
    except ValueError:
        raise TimelineError(f"{where}: '{' '.join(words)}' are not integers") from None
    for value in values:
        if not low <= value <= high:
            raise TimelineError(f"{where}: {value} is outside {low}...{high}")
    return values


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    """What a controller family's timelines may say: its buttons, the raw
    touch range, the range of IMU counts."""

    buttons: dict
    touch_max: int = 255
    counts: tuple[int, int] = (-4096, 4095)


DAYDREAM = Vocabulary(BUTTON_BITS)


def _button(word, where, buttons=BUTTON_BITS):
    if word not in buttons:
        raise TimelineError(f"{where}: unknown button '{word}' (known: {', '.join(buttons)})")
    return buttons[word]


class Timeline:
    """Parsed actions; state_at(ms) gives the controller state at a time."""

    def __init__(self, actions: list[Action], rate: float, end_ms: float) -> None:
        self.actions = sorted(actions, key=lambda action: (action.at_ms, action.line))
        self.rate = rate
        self.end_ms = end_ms

    @classmethod
    def parse(cls, text: str, source: str = "<timeline>", vocabulary: Vocabulary = DAYDREAM) -> "Timeline":
        buttons, touch_max, (low, high) = vocabulary.buttons, vocabulary.touch_max, vocabulary.counts
        actions: list[Action] = []
        rate = 60.0
        end_ms = None
        for number, raw in enumerate(text.splitlines(), start=1):
            where = f"{source}:{number}"
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "rate":
                if len(words) != 2 or not words[1].replace(".", "", 1).isdigit() or float(words[1]) <= 0:
                    raise TimelineError(f"{where}: 'rate' takes packets a second, e.g. 'rate 60'")
                rate = float(words[1])
                continue
            if words[0] != "at" or len(words) < 3:
                raise TimelineError(f"{where}: expected 'at <time> <action>'")
            at = parse_duration(words[1], where)
            kind, args = words[2], words[3:]
            if kind == "touch":
                if "->" in args:
                    # touch X Y -> X Y over D
                    if len(args) != 7 or args[2] != "->" or args[5] != "over":
                        raise TimelineError(f"{where}: a path is 'touch X Y -> X Y over 200ms'")
                    start = _ints(args[0:2], 2, 0, touch_max, where)
                    stop = _ints(args[3:5], 2, 0, touch_max, where)
                    duration = parse_duration(args[6], where)
                    actions.append(Action(at, "path", (start, stop, duration), number))
                else:
                    actions.append(Action(at, "touch", (_ints(args, 2, 0, touch_max, where),), number))
            elif kind == "lift":
                actions.append(Action(at, "touch", ((0, 0),), number))
            elif kind in ("press", "release"):
                if not args:
                    raise TimelineError(f"{where}: '{kind}' needs a button")
                bits = 0
                for word in args:
                    bits |= _button(word, where, buttons)
                actions.append(Action(at, kind, (bits,), number))
            elif kind == "alternate":
                bits = 0
                for word in args:
                    if word != "none":
                        bits |= _button(word, where, buttons)
                actions.append(Action(at, kind, (bits,), number))
            elif kind == "tap":
                if len(args) != 2:
                    raise TimelineError(f"{where}: 'tap BUTTON 100ms'")
                bits = _button(args[0], where, buttons)
                duration = parse_duration(args[1], where)
                actions.append(Action(at, "press", (bits,), number))
                actions.append(Action(at + duration, "release", (bits,), number))
            elif kind in ("orientation", "accel", "gyro"):
                actions.append(Action(at, kind, (_ints(args, 3, low, high, where),), number))
            elif kind == "status":
                actions.append(Action(at, kind, _ints(args, 1, 0, 255, where), number))
            elif kind in ("power-off", "power-on"):
                if args:
                    raise TimelineError(f"{where}: '{kind}' takes nothing")
                actions.append(Action(at, kind, (), number))
            elif kind == "end":
                end_ms = at
            else:
                raise TimelineError(f"{where}: unknown action '{kind}'")
        if end_ms is None:
            end_ms = max((action.at_ms for action in actions), default=0.0)
        return cls(actions, rate, end_ms)

    def state_at(self, ms: float, initial: State) -> State:
        state = dataclasses.replace(initial)
        for action in self.actions:
            if action.at_ms > ms:
                break
            kind = action.kind
            if kind == "touch":
                state.touch = action.args[0]
            elif kind == "path":
                (x0, y0), (x1, y1), duration = action.args
                f = 1.0 if duration <= 0 else min(1.0, (ms - action.at_ms) / duration)
                state.touch = (round(x0 + (x1 - x0) * f), round(y0 + (y1 - y0) * f))
            elif kind == "press":
                state.buttons |= action.args[0]
            elif kind == "release":
                state.buttons &= ~action.args[0]
            elif kind == "orientation":
                state.orientation = action.args[0]
            elif kind == "accel":
                state.acceleration = action.args[0]
            elif kind == "gyro":
                state.gyro = action.args[0]
            elif kind == "status":
                state.status = action.args[0]
            elif kind == "alternate":
                state.alternate = action.args[0]
            elif kind == "power-on":
                state = dataclasses.replace(initial)  # nothing stays held over a power cycle
        return state

    def power_actions(self) -> list[Action]:
        return [action for action in self.actions if action.kind in ("power-off", "power-on")]


def to_recording(timeline: Timeline, address: str, lead_in_ms: float = 0.0, tail_ms: float = 0.0) -> str:
    """The packets the emulator would send for `timeline`, sampled at its rate,
    as a recording in the bridge's format (idle packets before and after)."""
    lines = [f"{Recording.HEADER}1", f"address {address}", "name Daydream controller"]
    period = 1000.0 / timeline.rate
    total = lead_in_ms + timeline.end_ms + tail_ms
    initial = State()
    tick = 0
    while tick * period <= total:
        at = tick * period
        state = timeline.state_at(at - lead_in_ms, initial) if at >= lead_in_ms else initial
        if state.alternate and tick % 2:
            state = dataclasses.replace(state, buttons=state.buttons ^ state.alternate)
        packet = state.packet(round(at), tick % 32).encode()
        lines.append(f"{at / 1000:.6f} {packet.hex().upper()}")
        tick += 1
    return "\n".join(lines) + "\n"


class Recording:
    """A recording in the bridge's own text format (`daydream-bridge record`,
    "# daydream-bridge recording v1"): timed packets, plus connected,
    disconnected (played as power on and off) and battery entries."""

    HEADER = "# daydream-bridge recording v"

    def __init__(self, entries: list[tuple[float, str, object]]) -> None:
        self.entries = entries  # (ms, "packet" | "power-on" | "power-off" | "battery", value)
        self.end_ms = entries[-1][0] if entries else 0.0

    @classmethod
    def parse(cls, text: str, source: str = "<recording>", packet_size: int = 20) -> "Recording":
        lines = text.splitlines()
        if not lines or not lines[0].startswith(cls.HEADER):
            raise TimelineError(f"{source}:1: not a recording (expected '{cls.HEADER}1')")
        version = lines[0][len(cls.HEADER):].strip()
        if version != "1":
            raise TimelineError(f"{source}:1: recording version {version}, this emulator reads 1")
        entries = []
        for number, raw in enumerate(lines[1:], start=2):
            line = raw.strip()
            if not line or line.startswith("#") or line[0].isalpha():
                continue  # comments and device information
            where = f"{source}:{number}"
            words = line.split()
            try:
                at_ms = float(words[0]) * 1000
            except ValueError:
                raise TimelineError(f"{where}: '{words[0]}' is not a time in seconds") from None
            if len(words) == 2 and words[1] in ("connected", "disconnected"):
                entries.append((at_ms, "power-on" if words[1] == "connected" else "power-off", None))
            elif len(words) == 3 and words[1] == "battery":
                entries.append((at_ms, "battery", int(words[2])))
            elif len(words) == 2:
                try:
                    data = bytes.fromhex(words[1])
                except ValueError:
                    raise TimelineError(f"{where}: '{words[1]}' is not hex") from None
                if len(data) != packet_size:
                    raise TimelineError(f"{where}: a packet is {packet_size} bytes, this is {len(data)}")
                entries.append((at_ms, "packet", data))
            else:
                raise TimelineError(f"{where}: expected '<seconds> <{packet_size * 2} hex digits | connected | "
                                    "disconnected | battery N>'")
        return cls(entries)


def load(path: str, vocabulary: Vocabulary = DAYDREAM, packet_size: int = 20):
    """A Timeline, or a Recording when the file starts with the recording header."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    if text.startswith(Recording.HEADER):
        return Recording.parse(text, path, packet_size)
    return Timeline.parse(text, path, vocabulary)
