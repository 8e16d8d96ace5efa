"""Work-arounds for four bugs of Bumble 0.0.236's link-layer emulation.

See shared/design/e2e-rig.md. Each fix is as narrow as it can be, and
`apply()` refuses to run against another Bumble version: re-check the bugs
before moving the pin in setup.sh.
"""
from __future__ import annotations

import asyncio
import dataclasses

import bumble
from bumble import controller as bumble_controller
from bumble import hci, link as bumble_link
from bumble.core import PhysicalTransport

TESTED_VERSION = "0.0.236"

_ENHANCED_CONNECTION_COMPLETE_BIT = 1 << (hci.HCI_LE_ENHANCED_CONNECTION_COMPLETE_EVENT - 1)


def _route_acl_by_connection(self: bumble_controller.Connection, pdu: bytes) -> None:
    """Bug 1: LocalLink labels LE data with the sender's *current* random
    address, but the kernel scans with a throwaway random address and
    connects with its public one: the peer then finds no connection for the
    label and drops every request. Label it with the connection's own
    address, which is what the peer keyed the connection by."""
    link = self.link
    if not link:
        return
    if self.transport == PhysicalTransport.LE:
        destination = link.find_le_controller(self.peer_address)
        source_address = self.self_address
    else:
        destination = link.find_classic_controller(self.peer_address)
        source_address = self.controller.public_address
    if destination is None:
        return
    asyncio.get_running_loop().call_soon(
        destination.on_link_acl_data, source_address, self.transport, pdu
    )


class RigController(bumble_controller.Controller):
    """A Bumble link-layer controller with bugs 2, 3 and 4 fixed."""

    def __init__(self, *args, **kwargs) -> None:
        self._reported_advertisers: set[bytes] = set()
        self._scan_response = b""
        super().__init__(*args, **kwargs)

    # Bug 2: Bumble ignores "filter duplicates" and reports every advertising
    # PDU (about 100 a second), which starves bluetoothd under emulation.
    # Report each advertiser once per scan, as a real controller does.
    def on_hci_le_set_scan_enable_command(self, command):
        self._reported_advertisers.clear()
        return super().on_hci_le_set_scan_enable_command(command)

    def on_hci_le_set_extended_scan_enable_command(self, command):
        self._reported_advertisers.clear()
        return super().on_hci_le_set_extended_scan_enable_command(command)

    def on_advertising_pdu(self, pdu) -> None:
        if self.le_scan_enable and self.filter_duplicates:
            key = bytes(pdu.advertiser_address) + bytes([pdu.advertiser_address.address_type])
            if key in self._reported_advertisers:
                # Still let a pending connection to this advertiser complete.
                self.le_scan_enable = False
                try:
                    super().on_advertising_pdu(pdu)
                finally:
                    self.le_scan_enable = True
                return
            self._reported_advertisers.add(key)
        self._scan_response = self._advertisers_scan_response(pdu.advertiser_address)
        try:
            super().on_advertising_pdu(pdu)
        finally:
            self._scan_response = b""

    # Bug 4: the scan response Bumble reports is a copy of the advertising
    # data; the advertiser's own scan response data is never seen. Report
    # the advertiser's, when it has set one (a Gear VR controller puts
    # Samsung's manufacturer data there; a Daydream sets none).
    def _advertisers_scan_response(self, address) -> bytes:
        for controller in getattr(self.link, "controllers", ()):
            if controller is self or controller.public_address != address:
                continue
            if controller.le_legacy_advertiser.enabled:
                return bytes(controller.le_legacy_advertiser.scan_response_data)
            for advertising_set in controller.advertising_sets.values():  # Bumble's Device uses these
                if advertising_set.enabled:
                    return bytes(advertising_set.scan_response_data)
        return b""

    def _with_scan_response(self, packet):
        if not self._scan_response:
            return packet
        if isinstance(packet, hci.HCI_LE_Extended_Advertising_Report_Event):
            scan_response = hci.HCI_LE_Extended_Advertising_Report_Event.EventType.SCAN_RESPONSE
            if all(report.event_type & scan_response for report in packet.reports):
                return hci.HCI_LE_Extended_Advertising_Report_Event(
                    [dataclasses.replace(report, data=self._scan_response) for report in packet.reports])
        elif isinstance(packet, hci.HCI_LE_Advertising_Report_Event):
            scan_response = hci.HCI_LE_Advertising_Report_Event.EventType.SCAN_RSP
            if all(report.event_type == scan_response for report in packet.reports):
                return hci.HCI_LE_Advertising_Report_Event(
                    [dataclasses.replace(report, data=self._scan_response) for report in packet.reports])
        return packet

    # Bug 3: Bumble always sends the legacy LE Connection Complete event; a
    # host that enabled the Enhanced one (kernel 6.1 does, as Bumble claims LL
    # Privacy and Extended Advertising) waits for it and cancels a connection
    # that is up four seconds later. Send the event the host asked for.
    def send_hci_packet(self, packet) -> None:
        packet = self._with_scan_response(packet)
        if (
            isinstance(packet, hci.HCI_LE_Connection_Complete_Event)
            and self.le_event_mask & _ENHANCED_CONNECTION_COMPLETE_BIT
        ):
            packet = hci.HCI_LE_Enhanced_Connection_Complete_Event(
                status=packet.status,
                connection_handle=packet.connection_handle,
                role=packet.role,
                peer_address_type=packet.peer_address_type,
                peer_address=packet.peer_address,
                local_resolvable_private_address=hci.Address.ANY_RANDOM,
                peer_resolvable_private_address=hci.Address.ANY_RANDOM,
                connection_interval=packet.connection_interval,
                peripheral_latency=packet.peripheral_latency,
                supervision_timeout=packet.supervision_timeout,
                central_clock_accuracy=packet.central_clock_accuracy,
            )
        super().send_hci_packet(packet)


def quiet_hot_paths() -> None:
    """Not a bug fix, a cost: Bumble formats every HCI packet into its debug
    log message (an f-string) even when debug logging is off. Per input
    packet that is five formatted packets, which under software emulation
    costs more than the rest of the path. Replace the four methods on the
    packet path with copies that skip the message (the logic is unchanged);
    --debug keeps Bumble's own."""
    from bumble import host as bumble_host

    def host_send_hci_packet(self, packet) -> None:
        data = bytes(packet)
        if self.snooper:
            self.snooper.snoop(data, bumble_host.Snooper.Direction.HOST_TO_CONTROLLER)
        if self.hci_sink:
            self.hci_sink.on_packet(data)

    def host_on_hci_packet(self, packet) -> None:
        if self.snooper:
            self.snooper.snoop(bytes(packet), bumble_host.Snooper.Direction.CONTROLLER_TO_HOST)
        match packet:
            case hci.HCI_Event():
                self.on_hci_event_packet(packet)
            case hci.HCI_AclDataPacket():
                self.on_hci_acl_data_packet(packet)
            case _:
                quiet_hot_paths.original_host_on_hci_packet(self, packet)

    def controller_on_hci_packet(self, packet) -> None:
        match packet:
            case hci.HCI_Command():
                self.on_hci_command_packet(packet)
            case hci.HCI_AclDataPacket():
                self.on_hci_acl_data_packet(packet)
            case _:
                quiet_hot_paths.original_controller_on_hci_packet(self, packet)

    def controller_send_hci_packet(self, packet) -> None:
        if self.host:
            asyncio.get_running_loop().call_soon(self.host.on_packet, bytes(packet))

    quiet_hot_paths.original_host_on_hci_packet = bumble_host.Host.on_hci_packet
    quiet_hot_paths.original_controller_on_hci_packet = bumble_controller.Controller.on_hci_packet
    bumble_host.Host.send_hci_packet = host_send_hci_packet
    bumble_host.Host.on_hci_packet = host_on_hci_packet
    bumble_controller.Controller.on_hci_packet = controller_on_hci_packet
    bumble_controller.Controller.send_hci_packet = controller_send_hci_packet


def apply() -> None:
    """Installs the fix for bug 1 (fixes 2 and 3 live in RigController)."""
    version = getattr(bumble, "__version__", None)
    if version is None:
        from bumble import _version
        version = _version.version
    if version != TESTED_VERSION:
        raise RuntimeError(
            f"the e2e emulator patches Bumble {TESTED_VERSION}, found {version}: "
            "check the three bugs in shared/design/e2e-rig.md, then update TESTED_VERSION"
        )
    bumble_controller.Connection.on_acl_pdu = _route_acl_by_connection


LocalLink = bumble_link.LocalLink
