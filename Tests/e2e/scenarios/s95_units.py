"""The daemon as installed, under its shipped systemd units, with systemd as PID 1: a container
booted in the guest (runner/container.py) gets the bridge as the README's install section says
(dpkg -i of the package make e2e built, or make install without one), its own D-Bus and
BlueZ's bluetooth.service, and the guest's kernel and udev with the shipped rules (the group
variant the system unit needs). Each shipped
config then runs under the system unit, then under the user unit of a user in group input
each config that asks that unit for something not asked yet (a kind of device, DSU, the
DualSense; the others make only devices it already made under the same access):
the virtual devices appear (udev classifies them), [dsu] answers on 127.0.0.1:26760 from
outside the container, identity = "dualsense" makes its hidraw node, and the control socket
and the D-Bus API answer root (system unit) or the user (user unit); the input group, and no
other user on the bus, are the unit's settings, not the config's: checked with the system
unit's first config. The user unit's
sandbox, which this systemd (252) applies only with PrivateUsers=yes, is checked with that in a
drop-in; with unprivileged user namespaces forbidden, the shipped user unit must still run.
hid-playstation is not loaded beforehand, as after a boot (udev loads only uinput and uhid): the
system unit, whose sandbox hides the kernel's modules, must make the DualSense all the same, the
kernel loading the driver when the uhid device appears."""
from __future__ import annotations

import functools
import glob
import grp
import os
import re
import stat
import time

from container import Container
from dsu_client import Client
from input_devices import dualsense_hidraw, list_devices, udev_settle
from processes import modprobe, unload_module
from rig import scenario
from udev_rules import DEVICE_RULES, UINPUT_RULES, group_variant, installed_rules, udevadm
from waiting import wait_until

NAME, ADDRESS = "units", "C0:DD:EE:00:00:95"
SYSTEM_UNIT, USER_UNIT = "daydream-bridge-system.service", "daydream-bridge.service"
# The package that make e2e built (E2E_DEB), installed as users install it; without one, the
# bridge from `make install` (PREFIX=/usr/local), as the README's from-source lines say.
DEB = os.environ.get("E2E_DEB") or None
BRIDGE = "/usr/bin/daydream-bridge" if DEB else "/usr/local/bin/daydream-bridge"
PLAYER = "daydream-player"
# A user in no group of the bridge's: the system bus's policy keeps it out.
STRANGER = "daydream-stranger"
CONTROLLER_PATH = "/org/daydream_bridge/controller/" + ADDRESS.replace(":", "_")
DEVICE_PREFIX = "Daydream Controller"


def has_dsu(text: str) -> bool:
    """The config starts the DSU server (a [dsu] table, not one in a comment)."""
    return re.search(r"^\[dsu\]", text, re.MULTILINE) is not None


def makes_dualsense(text: str) -> bool:
    return re.search(r'^identity = "dualsense"', text, re.MULTILINE) is not None


def bridge_devices() -> dict[str, str]:
    """The bridge's input devices now: event node -> name."""
    return {path: name for path, name in list_devices().items() if name.startswith(DEVICE_PREFIX)}


def check_running(rig, container: Container, config: str, text: str, unit: str, user: str | None,
                  access: bool = False) -> set[str]:
    """The controller taken on by the unit's daemon, seen through its control socket and its D-Bus
    API; its devices classified by the shipped rules; the DSU server and the DualSense when the
    config has them. With `access`, who else may reach the socket and the bus too: that is the
    unit's doing, not the config's, so it is checked with a unit's first config only. The names of
    the devices it made."""
    what = f"{os.path.basename(config)} under {unit}"

    def journal() -> str:
        return f"\n--- the unit's journal:\n{container.journal(unit, user=user)}"

    # The system unit's socket is root's and the input group's; the user unit's the user's.
    for asker in ([None, PLAYER] if user is None and access else [user]):
        def taken_on() -> bool:
            result = container.run([BRIDGE, "profile"], user=asker, env=player_env(container) if asker else None,
                                   check=False)
            return result.returncode == 0 and ADDRESS in result.stdout
        assert wait_until(taken_on, timeout=20), f"{what}: the control socket never listed {ADDRESS} " \
            f"('daydream-bridge profile' as {asker or 'root'}){journal()}"

    check_bus_api(container, what, unit, user, journal, access)

    dualsense = makes_dualsense(text)
    if dualsense:
        assert wait_until(lambda: any("/uhid/0005:054C:0CE6." in os.path.realpath(f"/sys/class/hidraw/{node}")
                                      for node in os.listdir("/sys/class/hidraw")), timeout=20), \
            f"{what}: no DualSense hidraw node{journal()}"
        dualsense_hidraw()  # exactly one
    devices = bridge_devices()
    assert devices, f"{what}: no '{DEVICE_PREFIX} ...' input device{journal()}"
    udev_settle()
    for path, name in devices.items():
        if name.startswith(f"{DEVICE_PREFIX} DualSense"):
            continue  # hid-playstation's nodes: the kernel's, not the bridge's uinput devices
        node = os.path.basename(path)
        properties = udevadm("info", "--query=property", f"--name=/dev/input/{node}")
        assert "DAYDREAM_BRIDGE_DEVICE=" in properties, f"{what}: udev did not classify {name} ({path}):\n{properties}"

    if has_dsu(text):
        client = Client()
        try:
            mac = bytes.fromhex(ADDRESS.replace(":", ""))
            assert wait_until(lambda: client.slot_info() == (2, mac), timeout=15), \
                f"{what}: the DSU server on 127.0.0.1:26760 does not show the controller in slot 0{journal()}"
        finally:
            client.close()
    rig.figure(f"units: {what}: {len(devices)} devices" + (", DSU" if has_dsu(text) else "")
               + (", DualSense hidraw" if dualsense else ""))
    return set(devices.values())


def check_bus_api(container: Container, what: str, unit: str, user: str | None, journal, access: bool) -> None:
    """The unit's D-Bus API as installed: the system unit's on the system bus, which the shipped
    policy opens to root and (with `access`) the input group and closes to other users; the user
    unit's on the user's session bus. The controller's battery (the emulator's 87 %) reads
    through busctl."""
    bus = "--system" if user is None else "--user"

    def battery(asker: str | None) -> str:
        return container.run(["busctl", bus, "get-property", "org.daydream_bridge", CONTROLLER_PATH,
                              "org.daydream_bridge.Controller1", "Battery"],
                             user=asker, env=player_env(container) if asker else None, check=False).stdout.strip()

    for asker in ([None, PLAYER] if user is None and access else [user]):
        assert wait_until(lambda: battery(asker) == "y 87", timeout=20), \
            f"{what}: busctl {bus} as {asker or 'root'} read the battery as '{battery(asker)}', not 'y 87'{journal()}"
    if user is None and access:
        refused = container.run(["busctl", "--system", "get-property", "org.daydream_bridge", CONTROLLER_PATH,
                                 "org.daydream_bridge.Controller1", "Battery"], user=STRANGER, check=False)
        said = refused.stderr + refused.stdout
        assert refused.returncode != 0 and ("Access denied" in said or "Rejected send message" in said), \
            f"{what}: a user outside group input read the bridge on the system bus: {refused.stdout} {refused.stderr}"


def wait_subscribed(rig, container: Container, mark: int, unit: str, user: str | None) -> None:
    """The unit's daemon subscribed to the controller (the emulator's event after `mark`)."""
    try:
        rig.emulator.wait_event("subscribed", NAME, since=mark, timeout=60, on=True)
    except AssertionError as error:
        state = container.run(["systemctl", *(["--user"] if user else []), "status", "--no-pager", unit],
                              user=user, env=player_env(container) if user else None, check=False).stdout
        raise AssertionError(f"{unit}: {error}\n--- systemctl status:\n{state}\n--- the unit's journal:\n"
                             f"{container.journal(unit, user=user)}") from None


@functools.cache
def player_env(container: Container) -> dict[str, str]:
    """The player's session environment: its runtime directory, where the user unit's socket is.
    Asked once per container (each `id` in it costs a quarter of a second under emulation)."""
    uid = container.run(["id", "-u", PLAYER]).stdout.strip()
    return {"XDG_RUNTIME_DIR": f"/run/user/{uid}"}


def main_pid(container: Container, unit: str, user: str | None = None) -> int:
    """The unit's main process in the container (0 when it has none)."""
    argv = ["systemctl", *(["--user"] if user else []), "show", "--property=MainPID", "--value", unit]
    return int(container.run(argv, user=user, env=player_env(container) if user else None).stdout.strip() or "0")


def sandbox_of(container: Container, pid: int) -> tuple[str, dict[str, bool]]:
    """The process's user namespace and, for each mount point it sees, whether it is read-only."""
    userns = container.run(["readlink", f"/proc/{pid}/ns/user"]).stdout.strip()
    read_only: dict[str, bool] = {}
    for line in container.run(["cat", f"/proc/{pid}/mountinfo"]).stdout.splitlines():
        fields = line.split()
        read_only[fields[4]] = "ro" in fields[5].split(",")  # the last mount on a point wins
    return userns, read_only


def check_user_sandbox(rig, container: Container, uid: str) -> None:
    """The user unit's sandbox in effect (PrivateUsers= on): the daemon in a user namespace of
    its own, the system and the homes read-only, its runtime and state directories writable,
    and a gyro bias measured by `calibrate` written to ~/.local/state/daydream-bridge."""
    env = player_env(container)
    pid = main_pid(container, USER_UNIT, user=PLAYER)
    manager = main_pid(container, f"user@{uid}.service")
    userns, read_only = sandbox_of(container, pid)
    journal = f"\n--- the unit's journal:\n{container.journal(USER_UNIT, user=PLAYER)}"
    assert userns != sandbox_of(container, manager)[0], \
        f"the user unit's daemon shares its manager's user namespace{journal}"
    home, state = f"/home/{PLAYER}", f"/home/{PLAYER}/.local/state/daydream-bridge"
    runtime = f"/run/user/{uid}/daydream-bridge"
    expected = {"/": True, "/usr": True, home: True, state: False, runtime: False}
    seen = {point: read_only.get(point) for point in expected}
    # "/" and the homes may be one mount; the nearest mount above a point is the one that counts.
    for point in expected:
        if seen[point] is None:
            parent = max((mount for mount in read_only if point.startswith(mount.rstrip("/") + "/") or mount == "/"),
                         key=len)
            seen[point] = read_only[parent]
    assert seen == expected, f"the user unit's mounts (read-only?): {seen}, not {expected}{journal}"
    result = container.run([BRIDGE, "calibrate", ADDRESS], user=PLAYER, env=env, check=False, timeout=60)
    assert result.returncode == 0, f"calibrate under the sandbox: {result.stdout}{result.stderr}{journal}"
    bias = container.run(["cat", f"{state}/gyro-bias"], check=False)
    assert bias.returncode == 0 and ADDRESS in bias.stdout, \
        f"calibrate under the sandbox wrote no bias to {state}/gyro-bias: {bias.stdout}{bias.stderr}{journal}"
    rig.figure(f"units: {USER_UNIT} with PrivateUsers=yes: own user namespace, / and {home} read-only, "
               f"its runtime and state directories writable, calibrate's bias stored")


def userns_switch() -> str | None:
    """The sysctl that forbids unprivileged user namespaces on this kernel (Debian's), if any."""
    path = "/proc/sys/kernel/unprivileged_userns_clone"
    return path if os.path.exists(path) else None


def wait_gone(what: str) -> None:
    assert wait_until(lambda: not bridge_devices(), timeout=15), \
        f"{what}: the bridge's devices outlived it: {sorted(bridge_devices().values())}"


@scenario("units: every shipped config under the system unit, and under the user unit each that asks more of it",
          needs=("run", "pair"), udev=True)
def shipped_units(rig):
    """A booted container: make install, bluetooth.service, pair; each config/*.toml under
    daydream-bridge-system.service, then under the user unit of a user in group input each
    config that asks something more of it: a kind of device not made under it yet, DSU, the
    DualSense."""
    modprobe("uhid")
    # Not loaded, as after a boot: the first DualSense (under the system unit, whose
    # ProtectKernelModules= hides /usr/lib/modules) must have the kernel load it.
    unload_module("hid-playstation")
    configs = sorted(glob.glob(os.path.join(rig.repo, "config", "*.toml")))
    texts = {config: open(config, encoding="utf-8").read() for config in configs}
    assert any(makes_dualsense(text) for text in texts.values()), "no shipped config makes the DualSense"
    assert any(has_dsu(text) for text in texts.values()), "no shipped config starts the DSU server"
    with open(os.path.join(rig.repo, "udev", UINPUT_RULES), encoding="utf-8") as file:
        uinput_rules = file.read()
    with open(os.path.join(rig.repo, "udev", DEVICE_RULES), encoding="utf-8") as file:
        device_rules = file.read()
    with installed_rules({UINPUT_RULES: group_variant(uinput_rules), DEVICE_RULES: device_rules}):
        udevadm("trigger", "--action=change", "--sysname-match=uinput", "--sysname-match=uhid")
        udevadm("settle", "--timeout=30")
        input_gid = grp.getgrnam("input").gr_gid
        for node in ("/dev/uinput", "/dev/uhid"):
            status = os.stat(node)
            assert status.st_gid == input_gid and stat.S_IMODE(status.st_mode) == 0o660, \
                f"{node} is gid {status.st_gid} mode {oct(stat.S_IMODE(status.st_mode))}, not input 0660"

        rig.kill_bluetoothd()  # the container's bluetooth.service takes hci0 (rig.reset starts it again)
        container = Container(rig)
        try:
            started = time.monotonic()
            container.start()
            rig.figure(f"units: the container booted in {time.monotonic() - started:.1f} s")
            if DEB:
                assert os.path.exists(DEB), f"E2E_DEB names {DEB}, which does not exist (make deb)"
                # man-db's trigger rebuilds the whole manual database on every install: 265 s
                # under the guest's software emulation, for nothing this test reads. Switched
                # off in the container only (Debian's own switch), as `man-db/auto-update=false`.
                container.run(["rm", "-f", "/var/lib/man-db/auto-update"])
                container.run(["dpkg", "--install", DEB], timeout=300)  # postinst makes the user
                rig.figure(f"units: dpkg -i {os.path.basename(DEB)}")
            else:
                container.run(["make", "--no-print-directory", "-C", rig.repo, "install",
                               f"BINARY={rig.bridge_path}"], timeout=120)
                container.run(["systemd-sysusers"])  # the system unit's user, as the README says
                container.run(["systemctl", "reload", "dbus"])  # its D-Bus policy names that user
            container.run(["systemctl", "daemon-reload"])
            container.run(["systemctl", "start", "bluetooth.service"], timeout=60)
            rig.controller(NAME, ADDRESS)
            mark = rig.emulator.mark()
            container.run([BRIDGE, "pair", ADDRESS], timeout=120)
            rig.emulator.wait_event("paired", NAME, since=mark, timeout=5)
            # A user in group input: the system unit's control socket is the group's, and the user
            # unit runs in this user's session.
            container.run(["useradd", "--create-home", "--groups", "input", PLAYER])
            container.run(["useradd", STRANGER])
            uid = container.run(["id", "-u", PLAYER]).stdout.strip()
            env = player_env(container)

            made: dict[str, set[str]] = {}
            for config, text in texts.items():
                container.write("/etc/daydream-bridge/config.toml", text)
                loaded_before = os.path.exists("/sys/module/hid_playstation")
                mark = rig.emulator.mark()
                container.run(["systemctl", "restart", SYSTEM_UNIT], timeout=60)
                wait_subscribed(rig, container, mark, SYSTEM_UNIT, user=None)
                made[config] = check_running(rig, container, config, text, SYSTEM_UNIT, user=None,
                                             access=not made)
                if makes_dualsense(text) and not loaded_before:
                    assert os.path.exists("/sys/module/hid_playstation"), \
                        f"{os.path.basename(config)}: a DualSense hidraw node without hid-playstation loaded"
                    rig.figure(f"units: {os.path.basename(config)} under {SYSTEM_UNIT}: hid-playstation, "
                               f"not loaded before, loaded by the kernel for the DualSense")
            container.run(["systemctl", "stop", SYSTEM_UNIT], timeout=60)
            wait_gone(f"{SYSTEM_UNIT} stopped")
            container.run(["rm", "/etc/daydream-bridge/config.toml"])

            container.run(["systemctl", "start", f"user@{uid}.service"], timeout=60)
            home_config = f"/home/{PLAYER}/.config/daydream-bridge"
            container.run(["mkdir", "-p", home_config], user=PLAYER)
            # The user unit's access is the user's, the same for every config: what differs is
            # what a config asks of it (a kind of device, /dev/uhid, the DSU socket). A config
            # whose devices the user unit already made, without DSU or the DualSense, adds nothing.
            covered: set[str] = set()
            for config, text in texts.items():
                if not has_dsu(text) and not makes_dualsense(text) and made[config] <= covered:
                    rig.figure(f"units: {os.path.basename(config)} under {USER_UNIT}: not run again, "
                               f"its devices ({', '.join(sorted(made[config]))}) were made under it already")
                    continue
                container.write(f"{home_config}/config.toml", text, owner=(int(uid), int(uid)))
                mark = rig.emulator.mark()
                container.run(["systemctl", "--user", "restart", USER_UNIT], user=PLAYER, env=env, timeout=60)
                wait_subscribed(rig, container, mark, USER_UNIT, user=PLAYER)
                covered |= check_running(rig, container, config, text, USER_UNIT, user=PLAYER)

            # The shipped unit's sandbox settings need a user namespace: systemd 254 and later
            # imply PrivateUsers=yes for them; this systemd (252) needs it said, in a drop-in.
            pid = main_pid(container, USER_UNIT, user=PLAYER)
            manager = main_pid(container, f"user@{uid}.service")
            shared = sandbox_of(container, pid)[0] == sandbox_of(container, manager)[0]
            version = container.run(["systemctl", "--version"]).stdout.split()[1]
            rig.figure(f"units: {USER_UNIT} as shipped, under systemd {version}: "
                       + ("no user namespace (its sandbox settings ignored)" if shared
                          else "a user namespace of its own"))
            drop_in = f"/home/{PLAYER}/.config/systemd/user/{USER_UNIT}.d/private-users.conf"
            container.write(drop_in, "[Service]\nPrivateUsers=yes\n", owner=(int(uid), int(uid)))
            container.run(["chown", "-R", f"{uid}:{uid}", f"/home/{PLAYER}/.config/systemd"])
            container.run(["systemctl", "--user", "daemon-reload"], user=PLAYER, env=env)
            sandboxed = [config for config, text in texts.items() if has_dsu(text) or makes_dualsense(text)]
            for config in sandboxed:
                text = texts[config]
                container.write(f"{home_config}/config.toml", text, owner=(int(uid), int(uid)))
                mark = rig.emulator.mark()
                container.run(["systemctl", "--user", "restart", USER_UNIT], user=PLAYER, env=env, timeout=60)
                wait_subscribed(rig, container, mark, USER_UNIT, user=PLAYER)
                check_running(rig, container, config, text, USER_UNIT, user=PLAYER)
            check_user_sandbox(rig, container, uid)

            # Where unprivileged user namespaces are forbidden the shipped unit must still start
            # (its sandbox then ignored); PrivateUsers=yes said outright stops it there.
            switch = userns_switch()
            if switch is not None:
                with open(switch, encoding="utf-8") as file:
                    allowed = file.read().strip()
                try:
                    with open(switch, "w", encoding="utf-8") as file:
                        file.write("0")
                    container.run(["systemctl", "--user", "restart", USER_UNIT], user=PLAYER, env=env, timeout=60,
                                  check=False)
                    state = container.run(["systemctl", "--user", "show", "--property=Result,ExecMainStatus",
                                           USER_UNIT], user=PLAYER, env=env, check=False).stdout.split()
                    rig.figure(f"units: {USER_UNIT} with PrivateUsers=yes, user namespaces forbidden: "
                               f"{' '.join(state)}")
                    container.run(["rm", "-r", os.path.dirname(drop_in)])
                    container.run(["systemctl", "--user", "daemon-reload"], user=PLAYER, env=env)
                    # Restart=on-failure ran into the start limit meanwhile.
                    container.run(["systemctl", "--user", "reset-failed", USER_UNIT], user=PLAYER, env=env, check=False)
                    config = sandboxed[-1]
                    mark = rig.emulator.mark()
                    container.run(["systemctl", "--user", "restart", USER_UNIT], user=PLAYER, env=env, timeout=60)
                    wait_subscribed(rig, container, mark, USER_UNIT, user=PLAYER)
                    check_running(rig, container, config, texts[config], USER_UNIT, user=PLAYER)
                    rig.figure(f"units: {USER_UNIT} as shipped, user namespaces forbidden: runs")
                finally:
                    with open(switch, "w", encoding="utf-8") as file:
                        file.write(allowed)
            container.run(["systemctl", "--user", "stop", USER_UNIT], user=PLAYER, env=env, timeout=60)
            wait_gone(f"{USER_UNIT} stopped")
        finally:
            container.stop()
