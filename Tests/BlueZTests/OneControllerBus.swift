import EventLoop
import TestSupport

/// A private bus with the fake bluetoothd, one adapter and one paired controller
/// (`ManagerRig.first`), for `body`; all of it stopped afterwards.
@MainActor
func withOneController(_ body: @MainActor (TestBus, Reactor, FakeBlueZ) throws -> Void) throws {
    let bus = try TestBus()
    defer { bus.stop() }
    let reactor = try Reactor()
    let fake = try FakeBlueZ(busAddress: bus.address, reactor: reactor)
    defer { fake.stop() }
    try fake.command("add_adapter", [:])
    try fake.command("add_device", ManagerRig.controller(ManagerRig.first))
    try body(bus, reactor, fake)
}
