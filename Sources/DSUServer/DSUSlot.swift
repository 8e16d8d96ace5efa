import DSU
import DaydreamCore
import DaydreamProtocol
import Timebase

/// One controller's DSU slot: what a client is shown for it, and the consumer that feeds it
/// the controller's packets and link changes. A fifth controller's waits for a slot
/// (`holdsSlot` false): it only counts packets, and tells the server when the controller
/// connects; the slot whose controller goes away may become its (see `DSUServer`).
///
/// The server holds its slots for its life; the controller's feed holds the one it feeds until
/// it is detached, which may be longer (its `deinit` calls `serverGone()`).
@MainActor
final class DSUSlot: ControllerConsumer {
    /// The controller's address, upper case.
    let address: String
    let mac: DSUMACAddress
    /// The slot's number, 0...3, while it holds one.
    var number: Int
    /// Whether it holds slot `number`, or waits for one.
    var holdsSlot = true
    var battery: DSUControllerInfo.Battery = .notApplicable
    // Both changed on every packet; unchecked, they skip the run-time exclusivity checks. No
    // access can overlap another: everything runs on the main thread, and neither the pad
    // mapper nor the server's send calls anything that reaches back.
    @exclusivity(unchecked) var connected = false
    @exclusivity(unchecked) var mapper = ControllerPadMapper()
    /// The server, unretained, until it goes. Each packet borrows it (`withBorrowed`): retaining
    /// it would cost a pair a packet. It lives through the call: the daemon holds it, and
    /// nothing the packet path calls drops it.
    @exclusivity(unchecked) private var server: Unmanaged<DSUServer>?

    init(address: String, number: Int, server: DSUServer) {
        self.address = address
        mac = DSUMACAddress(bluetoothAddress: address) ?? .none
        self.number = number
        self.server = .passUnretained(server)
    }

    /// The server is going: the feed may still hold this consumer, which then only counts packets.
    func serverGone() {
        server = nil
    }

    /// What a controller-info request is shown for this slot.
    var info: DSUControllerInfo {
        DSUControllerInfo(slot: UInt8(number), state: connected ? .connected : .disconnected, mac: mac, battery: battery)
    }

    /// A packet means the link is up, whether or not the feed said so before this was attached.
    func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
        connected = true
        guard holdsSlot, let server else { return mapper.skip(packet) }
        withBorrowed(server) { $0.receive(packet, from: self, at: time) }
    }

    /// A controller that goes away frees its slot for one that waits, and one that waits and
    /// connects may take a slot whose controller is away.
    func linkChanged(connected: Bool, at time: MonotonicTime) {
        self.connected = connected
        guard connected != holdsSlot, let server else { return }
        withBorrowed(server) { $0.giveFreedSlots() }
    }

    func batteryChanged(percent: Int, at time: MonotonicTime) {
        battery = DSUControllerInfo.Battery(percent: percent)
    }
}
