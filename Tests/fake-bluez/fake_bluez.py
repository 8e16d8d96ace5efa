#!/usr/bin/python3
"""A fake org.bluez for daydream-bridge's tests: no Bluetooth needed.

Runs on a private bus (--address). Exports what bluetoothd exports for the
parts the bridge uses: ObjectManager at /, AgentManager1 at /org/bluez,
Adapter1, Device1, GattService1, GattCharacteristic1 (ReadValue, StartNotify,
AcquireNotify handing out one end of a SOCK_SEQPACKET socketpair).

Notify sessions are kept per client as src/gatt-client.c keeps them: a
StartNotify session lasts until that client's StopNotify or until it leaves
the bus, across disconnects (subscribed again on the next connection), and
while any session is open AcquireNotify answers InProgress.

The test drives it with JSON lines on stdin; each command is answered with
one JSON line on stdout: {"id": N, "ok": true, "result": ...} or
{"id": N, "ok": false, "error": "..."}. The first line is {"ready": true}.
Needs Debian's python3-dbus and python3-gi (run it with /usr/bin/python3).
"""

import argparse
import errno
import json
import os
import socket
import sys

import dbus
import dbus.bus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

PROPS = "org.freedesktop.DBus.Properties"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
SERVICE = "org.bluez.GattService1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
AGENT_MANAGER = "org.bluez.AgentManager1"
AGENT = "org.bluez.Agent1"

FE55 = "0000fe55-0000-1000-8000-00805f9b34fb"
FEF5 = "0000fef5-0000-1000-8000-00805f9b34fb"
INPUT = "00000001-1000-1000-8000-00805f9b34fb"
COMMAND = "00000002-1000-1000-8000-00805f9b34fb"
BATTERY_SERVICE = "0000180f-0000-1000-8000-00805f9b34fb"
BATTERY_LEVEL = "00002a19-0000-1000-8000-00805f9b34fb"
BATTERY1 = "org.bluez.Battery1"
HID_SERVICE = "00001812-0000-1000-8000-00805f9b34fb"
# Options of add_device/configure that make a Daydream look-alike (see add_lookalike_gatt).
LOOKALIKE_OPTIONS = ("hid_service", "daydream_input", "extra_services")
DIS = "0000180a-0000-1000-8000-00805f9b34fb"
DIS_VALUES = [
    ("00002a29-0000-1000-8000-00805f9b34fb", "Google Inc."),
    ("00002a24-0000-1000-8000-00805f9b34fb", "Daydream controller"),
    ("00002a25-0000-1000-8000-00805f9b34fb", "SN0001"),
    ("00002a27-0000-1000-8000-00805f9b34fb", "0005.0003"),
    ("00002a26-0000-1000-8000-00805f9b34fb", "1.3.5"),
    ("00002a28-0000-1000-8000-00805f9b34fb", "825769af"),
]


def emit(line):
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def plain(value):
    """D-Bus values to JSON."""
    if isinstance(value, (dbus.Array, list)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.Int16, dbus.UInt16, dbus.Int32, dbus.UInt32, int)):
        return int(value)
    return str(value)


class Fake:
    """The whole fake bluetoothd: objects, call log, connection to the bus."""

    def __init__(self, address, name):
        self.address = address
        self.name = name
        self.bus = None
        self.objects = {}          # path -> FakeObject
        self.log = []              # ["Interface.Method path", ...]
        self.agent = None          # (sender, path, capability)
        self.default_agent = False
        self.running = False

    def connect(self):
        self.bus = dbus.bus.BusConnection(self.address)
        self.root = Root(self)
        self.root.add_to_connection(self.bus, "/")
        self.manager = AgentManager(self)
        self.manager.add_to_connection(self.bus, "/org/bluez")
        for obj in self.objects.values():
            obj.add_to_connection(self.bus, obj.path)

    def start(self):
        if self.bus is None:
            self.connect()
        self.bus.request_name(self.name, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
        self.running = True

    def stop(self):
        """bluetoothd exits: connections drop, temporary devices go, the bus name goes."""
        for obj in list(self.objects.values()):
            if isinstance(obj, Device):
                obj.drop(quiet=True)
        for path, obj in list(self.objects.items()):
            if isinstance(obj, Device) and not obj.props[DEVICE]["Paired"]:
                self.remove_tree(path, quiet=True)
        self.agent = None
        for obj in list(self.objects.values()):
            if isinstance(obj, GattCharacteristic):
                obj.forget_sessions()
        for obj in list(self.objects.values()):
            obj.remove_from_connection()
        self.root.remove_from_connection()
        self.manager.remove_from_connection()
        self.bus.close()
        self.bus = None
        self.running = False

    def add(self, obj):
        self.objects[obj.path] = obj
        if self.bus is not None:
            obj.add_to_connection(self.bus, obj.path)
            self.root.InterfacesAdded(obj.path, obj.managed())

    def remove_tree(self, path, quiet=False):
        for child in sorted([p for p in self.objects if p == path or p.startswith(path + "/")], reverse=True):
            obj = self.objects.pop(child)
            if isinstance(obj, GattCharacteristic):
                obj.release(True)  # its socket and the watch on it go with it
            if self.bus is not None and not quiet:
                self.root.InterfacesRemoved(child, dbus.Array(list(obj.props.keys()), signature="s"))
            if self.bus is not None:
                obj.remove_from_connection()

    def device(self, address):
        for obj in self.objects.values():
            if isinstance(obj, Device) and obj.props[DEVICE]["Address"] == address:
                return obj
        raise KeyError("no device " + address)

    def adapter(self):
        for obj in self.objects.values():
            if isinstance(obj, Adapter):
                return obj
        raise KeyError("no adapter")

    def call_agent(self, method, device, args, reply, error):
        if self.agent is None:
            error("no agent")
            return
        sender, path, _ = self.agent
        signature = {"RequestAuthorization": "o", "RequestConfirmation": "ou", "AuthorizeService": "os",
                     "RequestPinCode": "o", "RequestPasskey": "o", "DisplayPasskey": "ouq",
                     "DisplayPinCode": "os", "Cancel": ""}[method]
        self.bus.call_async(sender, path, AGENT, method, signature, [device.path] + list(args) if signature else [],
                            lambda *values: reply(plain(list(values))),
                            lambda e: error(e.get_dbus_name()))


class FakeObject(dbus.service.Object):
    # bluetoothd restarting means a new bus connection: objects move to it.
    SUPPORTS_MULTIPLE_CONNECTIONS = True

    def __init__(self, fake, path, props):
        dbus.service.Object.__init__(self)
        self.fake = fake
        self.path = path
        self.props = props

    def managed(self):
        return dbus.Dictionary({iface: dbus.Dictionary(p, signature="sv") for iface, p in self.props.items()},
                               signature="sa{sv}")

    def record(self, what):
        self.fake.log.append(what + " " + self.path)

    def set(self, iface, name, value):
        self.props[iface][name] = value
        if self.fake.bus is not None:
            self.PropertiesChanged(iface, dbus.Dictionary({name: value}, signature="sv"), dbus.Array([], signature="s"))

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, iface, name):
        try:
            return self.props[iface][name]
        except KeyError:
            raise dbus.exceptions.DBusException("no such property", name="org.freedesktop.DBus.Error.InvalidArgs")

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, iface):
        return dbus.Dictionary(self.props.get(iface, {}), signature="sv")

    @dbus.service.method(PROPS, in_signature="ssv")
    def Set(self, iface, name, value):
        self.record("Set.%s.%s" % (iface.split(".")[-1], name))
        if iface == ADAPTER and name == "Powered":
            if self.props[ADAPTER].get("PowerState") == "off-blocked":
                raise dbus.exceptions.DBusException("Blocked through rfkill", name="org.bluez.Error.Blocked")
            self.set(iface, name, dbus.Boolean(value))
            self.set(iface, "PowerState", dbus.String("on" if value else "off"))
        elif iface == DEVICE and name == "Trusted":
            self.set(iface, name, dbus.Boolean(value))
        elif iface == DEVICE and name == "Blocked":
            self.set(iface, name, dbus.Boolean(value))
            if value:
                self.drop()  # like bluetoothd's device_block: the link goes at once
        else:
            raise dbus.exceptions.DBusException("read-only", name="org.bluez.Error.NotPermitted")

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, iface, changed, invalidated):
        pass


class Root(dbus.service.Object):
    def __init__(self, fake):
        dbus.service.Object.__init__(self)
        self.fake = fake

    @dbus.service.method(OBJECT_MANAGER, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        self.fake.log.append("GetManagedObjects /")
        return dbus.Dictionary({p: o.managed() for p, o in self.fake.objects.items()}, signature="oa{sa{sv}}")

    @dbus.service.signal(OBJECT_MANAGER, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass


class AgentManager(dbus.service.Object):
    def __init__(self, fake):
        dbus.service.Object.__init__(self)
        self.fake = fake

    @dbus.service.method(AGENT_MANAGER, in_signature="os", sender_keyword="sender")
    def RegisterAgent(self, path, capability, sender=None):
        self.fake.log.append("RegisterAgent %s %s" % (path, capability))
        if self.fake.agent is not None and self.fake.agent[0] == sender:
            raise dbus.exceptions.DBusException("Already Exists", name="org.bluez.Error.AlreadyExists")
        self.fake.agent = (sender, path, str(capability))

    @dbus.service.method(AGENT_MANAGER, in_signature="o", sender_keyword="sender")
    def RequestDefaultAgent(self, path, sender=None):
        self.fake.log.append("RequestDefaultAgent " + path)
        self.fake.default_agent = True

    @dbus.service.method(AGENT_MANAGER, in_signature="o", sender_keyword="sender")
    def UnregisterAgent(self, path, sender=None):
        self.fake.log.append("UnregisterAgent " + path)
        self.fake.agent = None


class Adapter(FakeObject):
    def __init__(self, fake, name, address, powered):
        FakeObject.__init__(self, fake, "/org/bluez/" + name, {ADAPTER: {
            "Address": dbus.String(address), "Name": dbus.String("fake"),
            "Powered": dbus.Boolean(powered), "Discovering": dbus.Boolean(False),
            "PowerState": dbus.String("on" if powered else "off"),
        }})
        self.filter = None
        # StartDiscovery calls answered InProgress, as bluetoothd answers while the kernel is
        # still busy with an earlier discovery (one a crashed bluetoothd left running).
        self.busy_discovery_starts = 0

    @dbus.service.method(ADAPTER, in_signature="a{sv}")
    def SetDiscoveryFilter(self, options):
        self.record("SetDiscoveryFilter")
        self.filter = plain(options)

    @dbus.service.method(ADAPTER)
    def StartDiscovery(self):
        self.record("StartDiscovery")
        if not self.props[ADAPTER]["Powered"]:
            raise dbus.exceptions.DBusException("Resource Not Ready", name="org.bluez.Error.NotReady")
        if self.busy_discovery_starts > 0:
            self.busy_discovery_starts -= 1
            raise dbus.exceptions.DBusException("Operation already in progress", name="org.bluez.Error.InProgress")
        self.set(ADAPTER, "Discovering", dbus.Boolean(True))

    @dbus.service.method(ADAPTER)
    def StopDiscovery(self):
        self.record("StopDiscovery")
        self.set(ADAPTER, "Discovering", dbus.Boolean(False))

    @dbus.service.method(ADAPTER, in_signature="o")
    def RemoveDevice(self, path):
        self.record("RemoveDevice")
        if path not in self.fake.objects:
            raise dbus.exceptions.DBusException("Does Not Exist", name="org.bluez.Error.DoesNotExist")
        self.fake.objects[path].drop(quiet=True)
        self.fake.remove_tree(path)


class Device(FakeObject):
    def __init__(self, fake, adapter, address, name, uuids, paired, rssi):
        props = {"Address": dbus.String(address), "AddressType": dbus.String("public"),
                 "Alias": dbus.String(name or address.replace(":", "-")),
                 "Paired": dbus.Boolean(paired), "Bonded": dbus.Boolean(paired),
                 "Trusted": dbus.Boolean(False), "Connected": dbus.Boolean(False),
                 "ServicesResolved": dbus.Boolean(False), "Blocked": dbus.Boolean(False),
                 "UUIDs": dbus.Array(uuids, signature="s"), "Adapter": dbus.ObjectPath(adapter.path)}
        if name is not None:
            props["Name"] = dbus.String(name)
        if rssi is not None:
            props["RSSI"] = dbus.Int16(rssi)
        FakeObject.__init__(self, fake, adapter.path + "/dev_" + address.replace(":", "_"), {DEVICE: props})
        self.present = True          # advertising / in range
        self.pair_error = None       # e.g. org.bluez.Error.AuthenticationFailed
        self.connect_error = None
        self.connect_error_message = "failed"  # BlueZ's reason, e.g. le-connection-key-missing
        self.agent_method = "RequestConfirmation"
        self.gatt = True
        self.battery_notify = True
        self.battery_plugin = False  # like bluetoothd's battery plugin: Battery1 instead of 180F
        self.refuse_acquire = None
        self.late_gatt = False       # another GATT object right after ServicesResolved
        self.input_held_elsewhere = False  # another client acquires the input notifications on connection
        self.hid_service = False     # a look-alike with a HID service (0x1812)
        self.daydream_input = True   # False: a look-alike without the FE55 input characteristic
        self.extra_services = []     # UUIDs of services a Daydream controller does not have
        self.resolves = True         # False: connected, but ServicesResolved never comes
        self.acquire_hangs = False   # True: AcquireNotify is never answered

    def address(self):
        return str(self.props[DEVICE]["Address"])

    @dbus.service.method(DEVICE, async_callbacks=("ok", "err"))
    def Pair(self, ok, err):
        self.record("Pair")
        if self.props[DEVICE]["Paired"]:
            err(dbus.exceptions.DBusException("Already Exists", name="org.bluez.Error.AlreadyExists"))
            return
        if self.pair_error:
            err(dbus.exceptions.DBusException("failed", name=self.pair_error))
            return

        def accepted(_values):
            self.set(DEVICE, "Paired", dbus.Boolean(True))
            self.set(DEVICE, "Bonded", dbus.Boolean(True))
            ok()

        def refused(name):
            self.fake.log.append("agent refused %s %s" % (self.path, name))
            err(dbus.exceptions.DBusException("Authentication Rejected", name="org.bluez.Error.AuthenticationRejected"))

        args = [dbus.UInt32(123456)] if self.agent_method == "RequestConfirmation" else []
        self.fake.call_agent(self.agent_method, self, args, accepted, refused)

    @dbus.service.method(DEVICE, async_callbacks=("ok", "err"))
    def Connect(self, ok, err):
        self.record("Connect")
        if self.connect_error:
            err(dbus.exceptions.DBusException(self.connect_error_message, name=self.connect_error))
            return
        if not self.present:
            err(dbus.exceptions.DBusException("le-connection-abort-by-local", name="org.bluez.Error.Failed"))
            return
        if self.props[DEVICE]["Connected"]:
            ok()
            return
        self.set(DEVICE, "Connected", dbus.Boolean(True))
        ok()
        GLib.idle_add(self.resolve)

    def resolve(self):
        if not self.props[DEVICE]["Connected"] or not self.resolves:
            return False
        if self.gatt and not any(p.startswith(self.path + "/") for p in self.fake.objects):
            self.add_gatt()
        for obj in list(self.fake.objects.values()):
            if isinstance(obj, GattCharacteristic) and obj.path.startswith(self.path + "/"):
                obj.subscribe_sessions()
        if self.input_held_elsewhere:
            # Another client (a running bridge) acquires the input notifications on connection.
            char = self.characteristic(INPUT)
            if char.socket is None:
                char.socket, char.other_holder = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                char.props[CHARACTERISTIC]["NotifyAcquired"] = dbus.Boolean(True)
        self.set(DEVICE, "ServicesResolved", dbus.Boolean(True))
        if self.late_gatt:
            # Like bluetoothd exporting a last object after ServicesResolved.
            service = self.fake.objects[self.path + "/service000a"]
            late = GattCharacteristic(self.fake, service, 0x40, "00002a50-0000-1000-8000-00805f9b34fb",
                                      ["read"], [2, 0xE0, 0x00, 0x00, 0x00, 0x01, 0x00])
            if late.path not in self.fake.objects:
                self.fake.add(late)
        return False

    def add_gatt(self):
        def service(number, uuid):
            s = GattService(self.fake, self, number, uuid)
            self.fake.add(s)
            return s

        def char(svc, number, uuid, flags, value):
            self.fake.add(GattCharacteristic(self.fake, svc, number, uuid, flags, value))

        if self.battery_plugin:
            self.props[BATTERY1] = {"Percentage": dbus.Byte(85), "Source": dbus.String("GATT Battery Service")}
            self.fake.root.InterfacesAdded(self.path, dbus.Dictionary(
                {BATTERY1: dbus.Dictionary(self.props[BATTERY1], signature="sv")}, signature="sa{sv}"))
        else:
            battery = service(1, BATTERY_SERVICE)
            char(battery, 2, BATTERY_LEVEL, ["read", "notify"] if self.battery_notify else ["read"], [85])
        dis = service(10, DIS)
        for index, (uuid, text) in enumerate(DIS_VALUES):
            char(dis, 11 + index, uuid, ["read"], list(text.encode()))
        daydream = service(20, FE55)
        char(daydream, 21, INPUT, ["notify"], [])
        char(daydream, 24, COMMAND, ["write"], [])
        update = service(30, FEF5)
        char(update, 31, "00000004-0000-1000-8000-00805f9b34fb", ["write"], [])
        self.add_lookalike_gatt()

    def add_lookalike_gatt(self):
        """A look-alike's differences. Like bluetoothd, whose input plugin claims
        the HID service: 0x1812 shows only in Device1.UUIDs, no GattService1.
        Other services are exported, and listed in UUIDs, as bluetoothd does.
        Called again for a Service Changed (command service_changed)."""
        uuids = [str(u) for u in self.props[DEVICE]["UUIDs"]]
        for number, uuid in enumerate(self.extra_services):
            path = "%s/service%04x" % (self.path, 0x50 + number)
            if path not in self.fake.objects:
                self.fake.add(GattService(self.fake, self, 0x50 + number, uuid))
        added = [u for u in self.extra_services + ([HID_SERVICE] if self.hid_service else []) if u not in uuids]
        if added:
            self.set(DEVICE, "UUIDs", dbus.Array(uuids + added, signature="s"))
        if not self.daydream_input:
            try:
                self.fake.remove_tree(self.characteristic(INPUT).path)
            except KeyError:
                pass  # removed before

    @dbus.service.method(DEVICE)
    def Disconnect(self):
        self.record("Disconnect")
        self.drop()

    def drop(self, quiet=False):
        for obj in list(self.fake.objects.values()):
            if isinstance(obj, GattCharacteristic) and obj.path.startswith(self.path + "/"):
                obj.release(quiet)
        if self.props[DEVICE]["Connected"]:
            if quiet:
                self.props[DEVICE]["ServicesResolved"] = dbus.Boolean(False)
                self.props[DEVICE]["Connected"] = dbus.Boolean(False)
            else:
                self.set(DEVICE, "ServicesResolved", dbus.Boolean(False))
                self.set(DEVICE, "Connected", dbus.Boolean(False))

    def characteristic(self, uuid):
        for obj in self.fake.objects.values():
            if isinstance(obj, GattCharacteristic) and obj.path.startswith(self.path + "/") \
                    and obj.props[CHARACTERISTIC]["UUID"] == uuid:
                return obj
        raise KeyError("no characteristic %s on %s" % (uuid, self.path))


class GattService(FakeObject):
    def __init__(self, fake, device, number, uuid):
        FakeObject.__init__(self, fake, "%s/service%04x" % (device.path, number), {SERVICE: {
            "UUID": dbus.String(uuid), "Primary": dbus.Boolean(True), "Device": dbus.ObjectPath(device.path)}})


class GattCharacteristic(FakeObject):
    def __init__(self, fake, service, number, uuid, flags, value):
        FakeObject.__init__(self, fake, "%s/char%04x" % (service.path, number), {CHARACTERISTIC: {
            "UUID": dbus.String(uuid), "Service": dbus.ObjectPath(service.path),
            "Flags": dbus.Array(flags, signature="s"), "Notifying": dbus.Boolean(False),
            "Value": dbus.Array([dbus.Byte(b) for b in value], signature="y")}})
        self.socket = None
        self.socket_watch = None     # the GLib watch on self.socket's hang-up
        self.sessions = {}           # StartNotify sessions: client's bus name -> subscribed now
        self.watches = {}            # client's bus name -> its NameOwnerChanged watch
        self.device = fake.objects[service.props[SERVICE]["Device"]]

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="ay")
    def ReadValue(self, options):
        self.record("ReadValue")
        if "read" not in self.props[CHARACTERISTIC]["Flags"]:
            raise dbus.exceptions.DBusException("Read not permitted", name="org.bluez.Error.NotPermitted")
        # Like bluetoothd: the value read is also signalled, before the reply.
        self.set(CHARACTERISTIC, "Value", self.props[CHARACTERISTIC]["Value"])
        return self.props[CHARACTERISTIC]["Value"]

    @dbus.service.method(CHARACTERISTIC, in_signature="aya{sv}")
    def WriteValue(self, value, options):
        self.record("WriteValue")

    @dbus.service.method(CHARACTERISTIC, sender_keyword="sender")
    def StartNotify(self, sender=None):
        self.record("StartNotify")
        if "notify" not in self.props[CHARACTERISTIC]["Flags"]:
            raise dbus.exceptions.DBusException("Notify not supported", name="org.bluez.Error.NotSupported")
        if self.socket is not None:
            raise dbus.exceptions.DBusException("Notify acquired", name="org.bluez.Error.NotPermitted")
        if sender in self.sessions:
            # One session per client: an answer again, or InProgress while it waits for a connection.
            if not self.sessions[sender]:
                raise dbus.exceptions.DBusException("In Progress", name="org.bluez.Error.InProgress")
            return
        connected = bool(self.device.props[DEVICE]["Connected"])
        self.sessions[sender] = connected
        self.watches[sender] = self.fake.bus.watch_name_owner(
            sender, lambda owner, client=sender: owner or self.end_session(client))
        if connected:
            self.set(CHARACTERISTIC, "Notifying", dbus.Boolean(True))

    @dbus.service.method(CHARACTERISTIC, sender_keyword="sender")
    def StopNotify(self, sender=None):
        self.record("StopNotify")
        if self.socket is not None:
            self.release(False)
            return
        if sender not in self.sessions:
            raise dbus.exceptions.DBusException("No notify session started", name="org.bluez.Error.Failed")
        self.end_session(sender)

    def end_session(self, client):
        self.sessions.pop(client, None)
        watch = self.watches.pop(client, None)
        if watch is not None:
            watch.cancel()
        if self.props[CHARACTERISTIC]["Notifying"] and not any(self.sessions.values()) and self.fake.bus is not None:
            self.set(CHARACTERISTIC, "Notifying", dbus.Boolean(False))

    def subscribe_sessions(self):
        """A connection: every session is subscribed again."""
        for client in self.sessions:
            self.sessions[client] = True
        if self.sessions and not self.props[CHARACTERISTIC]["Notifying"]:
            self.set(CHARACTERISTIC, "Notifying", dbus.Boolean(True))

    def forget_sessions(self):
        """bluetoothd exits: its sessions go with it."""
        for watch in self.watches.values():
            watch.cancel()
        self.watches.clear()
        self.sessions.clear()

    def session_log(self):
        return {client: subscribed for client, subscribed in self.sessions.items()}

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="hq", async_callbacks=("ok", "err"))
    def AcquireNotify(self, options, ok, err):
        self.record("AcquireNotify")
        if self.device.acquire_hangs:
            return
        if self.device.refuse_acquire:
            err(dbus.exceptions.DBusException("refused", name=self.device.refuse_acquire))
            return
        if not self.device.props[DEVICE]["Connected"]:
            err(dbus.exceptions.DBusException("Not connected", name="org.bluez.Error.Failed"))
            return
        if self.socket is not None:
            err(dbus.exceptions.DBusException("Notify acquired", name="org.bluez.Error.NotPermitted"))
            return
        if self.sessions:
            err(dbus.exceptions.DBusException("In Progress", name="org.bluez.Error.InProgress"))
            return
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.socket = mine
        # Like bluetoothd: the change is announced (a lender watches it to take the controller back).
        self.set(CHARACTERISTIC, "NotifyAcquired", dbus.Boolean(True))
        handed = dbus.types.UnixFd(theirs.fileno())
        theirs.close()
        # A watch is on a descriptor number, which the next socket may get once this one is
        # closed: release() removes it, or another controller's hang-up would close this one's.
        self.socket_watch = GLib.io_add_watch(mine.fileno(), GLib.IO_HUP | GLib.IO_ERR, self.peer_closed)
        ok(handed, dbus.UInt16(23))

    def peer_closed(self, *_):
        self.socket_watch = None  # returning False removes it
        self.fake.log.append("notify socket closed " + self.path)
        self.release(True)
        return False

    def release(self, quiet):
        """The connection dropped: the socket closes; sessions stay, waiting for the next one."""
        if self.socket_watch is not None:
            GLib.source_remove(self.socket_watch)
            self.socket_watch = None
        if self.socket is not None:
            self.socket.close()
            self.socket = None
            self.set(CHARACTERISTIC, "NotifyAcquired", dbus.Boolean(False))
        for client in self.sessions:
            self.sessions[client] = False
        if self.props[CHARACTERISTIC]["Notifying"]:
            if quiet:
                self.props[CHARACTERISTIC]["Notifying"] = dbus.Boolean(False)
            else:
                self.set(CHARACTERISTIC, "Notifying", dbus.Boolean(False))

    def notify(self, data):
        if self.socket is not None:
            try:
                self.socket.send(bytes(data))
            except OSError as error:  # like bluetoothd's "sendmsg: Connection reset by peer"
                self.fake.log.append("sendmsg %s %s" % (errno.errorcode.get(error.errno, error.errno), self.path))
                return "failed"
            return "socket"
        if any(self.sessions.values()):
            self.set(CHARACTERISTIC, "Value", dbus.Array([dbus.Byte(b) for b in data], signature="y"))
            return "signal"
        return "dropped"


def run_command(fake, command, answer):
    cmd = command["cmd"]
    if cmd == "add_adapter":
        fake.add(Adapter(fake, command.get("name", "hci0"), command.get("address", "00:AA:01:00:00:01"),
                         command.get("powered", True)))
        return None
    if cmd == "add_device":
        adapter = fake.adapter()
        device = Device(fake, adapter, command["address"], command.get("name"), command.get("uuids", []),
                        command.get("paired", False), command.get("rssi", -50))
        for key in ("pair_error", "connect_error", "connect_error_message", "agent_method", "battery_notify", "battery_plugin",
                    "refuse_acquire", "gatt", "late_gatt", "input_held_elsewhere"):
            if key in command:
                setattr(device, key, command[key])
        for key in LOOKALIKE_OPTIONS:
            if key in command:
                setattr(device, key, command[key])
        if command.get("trusted"):
            device.props[DEVICE]["Trusted"] = dbus.Boolean(True)
        fake.add(device)
        return device.path
    if cmd == "configure":
        device = fake.device(command["address"])
        for key, value in command.items():
            if key not in ("cmd", "address", "id"):
                setattr(device, key, value)
        return None
    if cmd == "configure_adapter":
        adapter = fake.adapter()
        for key, value in command.items():
            if key not in ("cmd", "id"):
                setattr(adapter, key, value)
        return None
    if cmd == "service_changed":
        # The device's table changed while connected (a Service Changed indication).
        device = fake.device(command["address"])
        for key in LOOKALIKE_OPTIONS:
            if key in command:
                setattr(device, key, command[key])
        device.add_lookalike_gatt()
        return None
    if cmd == "remove_device":
        device = fake.device(command["address"])
        device.drop(quiet=True)
        fake.remove_tree(device.path)
        return None
    if cmd == "set_property":
        obj = fake.objects[command["path"]]
        kind = command.get("type", "b")
        value = {"b": dbus.Boolean, "s": dbus.String, "n": dbus.Int16}[kind](command["value"])
        obj.set(command["interface"], command["name"], value)
        return None
    if cmd == "send":
        device = fake.device(command["address"])
        char = device.characteristic(command.get("uuid", INPUT))
        return char.notify(bytes.fromhex(command["hex"]))
    if cmd == "set_battery":
        device = fake.device(command["address"])
        if BATTERY1 in device.props:
            device.set(BATTERY1, "Percentage", dbus.Byte(command["percent"]))
            return None
        char = device.characteristic(BATTERY_LEVEL)
        value = dbus.Array([dbus.Byte(command["percent"])], signature="y")
        if char.props[CHARACTERISTIC]["Notifying"]:
            char.set(CHARACTERISTIC, "Value", value)
        else:
            char.props[CHARACTERISTIC]["Value"] = value
        return None
    if cmd == "drop":
        device = fake.device(command["address"])
        device.present = command.get("present", False)
        device.drop()
        return None
    if cmd == "stop":
        fake.stop()
        return None
    if cmd == "start":
        fake.start()
        return None
    if cmd == "agent":
        device = fake.device(command["address"])
        fake.call_agent(command["method"], device, command.get("args", []),
                        lambda values: answer({"ok": True, "result": "accepted"}),
                        lambda name: answer({"ok": True, "result": name}))
        return "async"
    if cmd == "state":
        adapter = fake.adapter()
        return {"filter": adapter.filter, "discovering": bool(adapter.props[ADAPTER]["Discovering"]),
                "powered": bool(adapter.props[ADAPTER]["Powered"]), "log": fake.log,
                "agent": list(fake.agent[1:]) if fake.agent else None, "default_agent": fake.default_agent,
                "devices": {o.address(): {k: plain(v) for k, v in o.props[DEVICE].items()}
                            for o in fake.objects.values() if isinstance(o, Device)}}
    if cmd == "sessions":
        return {o.path: o.session_log() for o in fake.objects.values()
                if isinstance(o, GattCharacteristic) and o.sessions}
    raise ValueError("unknown command " + cmd)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--name", default="org.bluez")
    parser.add_argument("--no-start", action="store_true", help="connect but do not own the name")
    options = parser.parse_args()

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    loop = GLib.MainLoop()
    fake = Fake(options.address, options.name)
    fake.connect()
    if not options.no_start:
        fake.start()
    buffered = b""

    def on_input(fd, condition):
        nonlocal buffered
        data = os.read(fd, 65536)
        if not data:
            loop.quit()
            return False
        buffered += data
        while b"\n" in buffered:
            line, buffered = buffered.split(b"\n", 1)
            if not line.strip():
                continue
            command = json.loads(line)
            ident = command.get("id")

            def answer(reply, ident=ident):
                reply["id"] = ident
                emit(reply)
            try:
                result = run_command(fake, command, answer)
                if result != "async":
                    answer({"ok": True, "result": result})
            except Exception as error:  # reported to the test, which fails on it
                answer({"ok": False, "error": "%s: %s" % (type(error).__name__, error)})
        return True

    GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, on_input)
    emit({"ready": True})
    loop.run()


if __name__ == "__main__":
    main()
