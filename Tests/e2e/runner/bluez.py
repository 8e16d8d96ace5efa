"""Blocking helpers over BlueZ's D-Bus API (python-dbus), for the rig's own
checks and for watching what the bridge does. Polls instead of listening
for signals: one process, no main loop."""
from __future__ import annotations

import time

import dbus

BLUEZ = "org.bluez"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
PROPERTIES = "org.freedesktop.DBus.Properties"
FE55 = "0000fe55-0000-1000-8000-00805f9b34fb"
FEF5 = "0000fef5-0000-1000-8000-00805f9b34fb"
INPUT_UUID = "00000001-1000-1000-8000-00805f9b34fb"


def device_path(address: str, adapter: str = "/org/bluez/hci0") -> str:
    return f"{adapter}/dev_{address.upper().replace(':', '_')}"


class BlueZ:
    def __init__(self) -> None:
        self.bus = dbus.SystemBus()

    def reconnect(self) -> None:
        self.bus = dbus.SystemBus(private=True)

    def _object(self, path: str):
        return self.bus.get_object(BLUEZ, path)

    def objects(self) -> dict:
        manager = dbus.Interface(self._object("/"), "org.freedesktop.DBus.ObjectManager")
        return manager.GetManagedObjects()

    def get(self, path: str, interface: str, name: str):
        return dbus.Interface(self._object(path), PROPERTIES).Get(interface, name)

    def get_or_none(self, path: str, interface: str, name: str):
        try:
            return self.get(path, interface, name)
        except dbus.DBusException:
            return None

    def set(self, path: str, interface: str, name: str, value) -> None:
        dbus.Interface(self._object(path), PROPERTIES).Set(interface, name, value)

    def call(self, path: str, interface: str, method: str, *args, timeout: float = 60.0):
        return getattr(dbus.Interface(self._object(path), interface), method)(*args, timeout=timeout)

    def wait(self, predicate, timeout: float, what: str, interval: float = 0.1):
        deadline = time.monotonic() + timeout
        last_error = None
        while time.monotonic() < deadline:
            try:
                value = predicate()
                if value:
                    return value
            except dbus.DBusException as error:
                last_error = error
            time.sleep(interval)
        raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}"
                             + (f" (last D-Bus error: {last_error.get_dbus_name()})" if last_error else ""))

    def wait_adapter(self, timeout: float = 30.0) -> str:
        path = "/org/bluez/hci0"
        self.wait(lambda: ADAPTER in self.objects().get(path, {}), timeout, "BlueZ's adapter hci0")
        return path

    def power_adapter(self, path: str = "/org/bluez/hci0") -> None:
        """Powers the adapter on (bluetoothd may be doing so already: Busy)."""
        def powered():
            if self.get(path, ADAPTER, "Powered"):
                return True
            try:
                self.set(path, ADAPTER, "Powered", dbus.Boolean(True))
            except dbus.DBusException as error:
                if error.get_dbus_name() not in ("org.bluez.Error.Busy", "org.bluez.Error.InProgress"):
                    raise
            return False
        self.wait(powered, 20, "the adapter to power on", interval=0.3)

    def wait_property(self, path: str, interface: str, name: str, value, timeout: float = 20.0):
        return self.wait(lambda: self.get_or_none(path, interface, name) == value or None, timeout,
                         f"{path.rsplit('/', 1)[-1]} {name} == {value}")

    def discover(self, address: str, uuids=(FE55,), timeout: float = 30.0,
                 adapter: str = "/org/bluez/hci0") -> str:
        path = device_path(address, adapter)
        self.call(adapter, ADAPTER, "SetDiscoveryFilter",
                  dbus.Dictionary({"UUIDs": dbus.Array(list(uuids), signature="s"),
                                   "Transport": "le"}, signature="sv"))
        self.call(adapter, ADAPTER, "StartDiscovery")
        try:
            self.wait(lambda: DEVICE in self.objects().get(path, {}), timeout,
                      f"discovery of {address} with the UUID filter")
        finally:
            try:
                self.call(adapter, ADAPTER, "StopDiscovery")
            except dbus.DBusException:
                pass
        return path

    def remove_all_devices(self, adapter: str = "/org/bluez/hci0") -> None:
        for path, interfaces in self.objects().items():
            if DEVICE in interfaces:
                try:
                    self.call(adapter, ADAPTER, "RemoveDevice", dbus.ObjectPath(path))
                except dbus.DBusException:
                    pass

    def characteristic(self, device: str, uuid: str) -> str:
        for path, interfaces in self.objects().items():
            if path.startswith(device + "/") and CHARACTERISTIC in interfaces \
                    and str(interfaces[CHARACTERISTIC]["UUID"]).lower() == uuid.lower():
                return path
        raise AssertionError(f"no characteristic {uuid} under {device}")

    def read(self, path: str) -> bytes:
        return bytes(self.call(path, CHARACTERISTIC, "ReadValue", dbus.Dictionary({}, signature="sv")))

    def acquire_notify(self, path: str) -> tuple[int, int]:
        fd, mtu = self.call(path, CHARACTERISTIC, "AcquireNotify", dbus.Dictionary({}, signature="sv"))
        return fd.take(), int(mtu)
