"""Emulated Daydream View controllers for the end-to-end rig.

Attaches a Bumble link-layer controller to the guest kernel through
/dev/vhci (the kernel sees hci0), and plays any number of Daydream
controllers on the same emulated link. A test runner drives it over a Unix
socket, one JSON object a line:

  request  {"id": 1, "cmd": "add", "name": "a", "address": "C0:DD:EE:00:00:01"}
  reply    {"id": 1, "ok": true, ...}           or {"id": 1, "ok": false, "error": "..."}
  event    {"event": "connected", "name": "a", "t_ns": ..., ...}

Commands: add (name, address, require_bond=true, rate=60, powered=true,
hid=false: a look-alike that also offers a HID keyboard service;
family="gear-vr" for a Gear VR controller, rate=68, echo_delay=1.5,
idle_s=0 and home_erase_s=0 (0: never), see gear_vr_device.py),
power (name, on), play (name, file | text), stop (name), state (name),
configure (name, idle_s | home_erase_s | echo_delay: a Gear VR's, while it
runs), stall (name: a Gear VR's stream goes silent until the next 0800),
battery (name, level), forget_bonds (name), notifications (path),
quit. `t_ns` is CLOCK_MONOTONIC.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bumble_fixes  # noqa: E402
from timeline import TimelineError  # noqa: E402

logger = logging.getLogger("emulator")

KERNEL_SIDE_ADDRESS = "00:E2:E0:00:00:01"


class Emulator:
    def __init__(self, vhci_path: str) -> None:
        self.vhci_path = vhci_path
        self.controllers: dict[str, object] = {}
        self.writer: asyncio.StreamWriter | None = None
        self.backlog: list[dict] = []

    async def start(self, debug: bool) -> None:
        bumble_fixes.apply()
        if not debug:
            bumble_fixes.quiet_hot_paths()
        from vhci import VhciTransport
        self.link = bumble_fixes.LocalLink()
        self.vhci = VhciTransport(self.vhci_path)
        self.kernel_side = bumble_fixes.RigController(
            "kernel", host_source=self.vhci, host_sink=self.vhci, link=self.link,
            public_address=KERNEL_SIDE_ADDRESS,
        )

    # Events to the runner ---------------------------------------------------
    def report(self, name: str | None, event: str, **fields) -> None:
        message = {"event": event, "name": name, "t_ns": time.monotonic_ns(), **fields}
        logger.info("event %s", json.dumps(message))
        if self.writer is None:
            self.backlog.append(message)
        else:
            self._write(message)

    def _write(self, message: dict) -> None:
        assert self.writer is not None
        self.writer.write((json.dumps(message) + "\n").encode())

    # Commands ---------------------------------------------------------------
    def _controller(self, request):
        name = request.get("name")
        if name not in self.controllers:
            raise KeyError(f"no controller named {name!r}")
        return self.controllers[name]

    async def handle(self, request: dict) -> dict:
        command = request.get("cmd")
        if command == "add":
            name = request["name"]
            if name in self.controllers:
                raise ValueError(f"controller {name!r} exists")
            family = request.get("family", "daydream")
            report = lambda event, **fields: self.report(name, event, **fields)  # noqa: E731
            if family == "daydream":
                from daydream_device import EmulatedDaydream
                controller = EmulatedDaydream(
                    name, request["address"], self.link, report=report,
                    require_bond=request.get("require_bond", True),
                    rate=float(request.get("rate", 60)),
                    hid=bool(request.get("hid", False)),
                )
            elif family == "gear-vr":
                from gear_vr_device import EmulatedGearVR
                controller = EmulatedGearVR(
                    name, request["address"], self.link, report=report,
                    require_bond=request.get("require_bond", True),
                    rate=float(request.get("rate", 68)),
                    echo_delay=float(request.get("echo_delay", 1.5)),
                    idle_s=float(request.get("idle_s", 0)),
                    home_erase_s=float(request.get("home_erase_s", 0)),
                )
            else:
                raise ValueError(f"unknown controller family {family!r} (daydream, gear-vr)")
            self.controllers[name] = controller
            if request.get("powered", True):
                await controller.start()
            else:
                await controller.device.power_on()
                controller.stream_task = asyncio.create_task(controller._stream())
            return {}
        if command == "power":
            controller = self._controller(request)
            if request["on"]:
                await controller.power_on()
            else:
                await controller.power_off()
            return {}
        if command == "play":
            controller = self._controller(request)
            if "text" in request:
                script = controller.parse_timeline(request["text"], request.get("label", "<inline>"))
            else:
                script = controller.load(request["file"])
            controller.play(script, request.get("label", request.get("file", "inline")))
            return {"end_ms": script.end_ms}
        if command == "stop":
            self._controller(request)._stop_playback()
            return {}
        if command == "state":
            controller = self._controller(request)
            connections = []
            for connection in controller.device.connections.values():
                connections.append({
                    "peer": str(connection.peer_address),
                    "encrypted": bool(connection.is_encrypted),
                    "bonded": await controller.device.keystore.get(str(connection.peer_address)) is not None,
                    "subscribed": connection.handle in controller.subscribed,
                })
            return {
                "powered": controller.powered,
                "advertising": controller.device.is_advertising,
                "connections": connections,
                "packets_sent": controller.packets_sent,
                "firmware_writes": controller.firmware_writes,
                "bonds": [name for name, _ in await controller.device.keystore.get_all()],
                "family": "gear-vr" if hasattr(controller, "streaming") else "daydream",
                "streaming": len(getattr(controller, "streaming", {})),
                "asleep": bool(getattr(controller, "asleep", False)),
            }
        if command == "configure":  # a Gear VR's timings, while it runs
            controller = self._controller(request)
            for key in ("idle_s", "home_erase_s", "echo_delay"):
                if key in request:
                    if not hasattr(controller, key):
                        raise ValueError(f"{request['name']} has no {key}")
                    setattr(controller, key, float(request[key]))
            return {}
        if command == "stall":
            self._controller(request).stall()
            return {}
        if command == "battery":
            await self._controller(request).set_battery(int(request["level"]))
            return {}
        if command == "forget_bonds":
            await self._controller(request).forget_bonds()
            return {}
        if command == "notifications":
            log = self.vhci.notification_log
            with open(request["path"], "w", encoding="utf-8") as file:
                for t_ns, acl_handle, att_handle, value in log:
                    file.write(f"{t_ns} {acl_handle} {att_handle} {value.hex()}\n")
            count = len(log)
            if request.get("clear", True):
                log.clear()
            return {"count": count}
        if command == "ping":
            return {"hci_index": self.vhci.hci_index}
        if command == "quit":
            asyncio.get_running_loop().call_later(0.1, self.stop_event.set)
            return {}
        raise ValueError(f"unknown command {command!r}")

    async def serve_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        for message in self.backlog:
            self._write(message)
        self.backlog.clear()
        try:
            while line := await reader.readline():
                try:
                    request = json.loads(line)
                except json.JSONDecodeError as error:
                    self._write({"ok": False, "error": f"bad JSON: {error}"})
                    continue
                logger.info("request %s", line.decode().strip())
                try:
                    reply = {"id": request.get("id"), "ok": True, **(await self.handle(request))}
                except (KeyError, ValueError, TimelineError, OSError) as error:
                    reply = {"id": request.get("id"), "ok": False, "error": str(error)}
                except Exception as error:  # report, keep serving
                    logger.exception("command failed")
                    reply = {"id": request.get("id"), "ok": False, "error": repr(error)}
                self._write(reply)
                await writer.drain()
        finally:
            self.writer = None

    async def run(self, control_path: str, debug: bool) -> None:
        self.stop_event = asyncio.Event()
        await self.start(debug)
        if os.path.exists(control_path):
            os.unlink(control_path)
        server = await asyncio.start_unix_server(self.serve_client, path=control_path)
        logger.info("ready: control socket %s", control_path)
        async with server:
            await self.stop_event.wait()
        self.vhci.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--control", required=True, help="Unix socket path for the runner")
    parser.add_argument("--vhci", default="/dev/vhci")
    parser.add_argument("--debug", action="store_true", help="Bumble's own debug log too")
    args = parser.parse_args()
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr,
        format="%(created).3f %(name)s %(levelname)s %(message)s",
    )
    logging.getLogger("bumble").setLevel(logging.DEBUG if args.debug else logging.WARNING)
    asyncio.run(Emulator(args.vhci).run(args.control, args.debug))


if __name__ == "__main__":
    main()
