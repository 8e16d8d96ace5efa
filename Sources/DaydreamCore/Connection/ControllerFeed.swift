import DaydreamProtocol
import Timebase

/// One controller's packets and link changes, handed to every attached `ControllerConsumer`.
///
/// The transport (a `DaydreamControllerManager` link, a recording, a test) drives the feed
/// with the notifications' bytes (`receive(_:at:)`) and the link's changes; the feed decodes
/// each notification once, counts it (`statistics`), keeps the link's state (connected,
/// battery, device information) and passes each on to its consumers in the order they
/// were attached. Any number may be attached; none takes another's place. The feed holds its
/// consumers until they are detached.
@MainActor
public final class ControllerFeed: ControllerConsumer {
    /// The Bluetooth address, `AA:BB:CC:DD:EE:FF`.
    public let address: String
    /// Which kind of controller it is: how its notifications decode.
    public var family: ControllerFamily {
        didSet { decodesDaydream = family.id == .daydream }
    }
    /// The family is the Daydream: its decoder is inlined here rather than called through the family.
    private var decodesDaydream: Bool
    /// Set by the transport: a command echo arrived (a 2-byte notification of a family that echoes).
    public var commandEchoed: (@MainActor (UInt16) -> Void)?
    /// The name BlueZ knows the controller by (its advertised name), once it connected; shown
    /// to people only, never trusted (a look-alike can advertise any name).
    public internal(set) var name: String?
    /// Whether the link is up and streaming.
    public private(set) var isConnected = false
    /// The last battery level read (from the Battery Service, or a packet that carries one), in percent.
    public private(set) var batteryPercent: Int?
    /// The Device Information strings read so far.
    public private(set) var deviceInformation = ControllerDeviceInformation()
    /// Whether the last subscription was refused because another program holds the input
    /// notifications (its AcquireNotify, a running bridge's say); false again once streaming.
    public internal(set) var inputHeldByAnotherProgram = false
    /// Set by the transport: reads the battery level, which then arrives as `batteryChanged`.
    public var batteryReader: (@MainActor () -> Void)?
    /// Whether the input notifications are lent to another program (Monado): the link stays
    /// connected, and nothing is streamed here until the controller is taken back.
    public private(set) var isLent = false
    /// Set by a transport that can lend the controller: lends it (`true`) or takes it back
    /// (`false`); false when it cannot lend it now (not connected).
    public var lender: (@MainActor (_ lend: Bool) -> Bool)?
    /// The packets received, lost on the way (gaps in the sequence) and malformed (dropped).
    public var statistics: DDControllerStatistics { counter.statistics }

    /// Everything that is not a packet goes to these, iterating a copy: a consumer that attaches or
    /// detaches meanwhile changes the stored array, not the one being iterated.
    private var consumers: [any ControllerConsumer] = [] {
        didSet { replaceChain() }
    }
    /// Packets go through the chain of the same consumers, which this holds.
    private var chain: ConsumerChain?
    // The packet path reads `chain` through this unretained copy, borrowing it for the walk
    // (`withBorrowed`) instead of retaining and releasing it. A chain replaced during a walk
    // (a consumer attached or detached from inside `receive`) is kept in `retiredChains` until
    // the walk ends, so the one being walked lives as long as the walk. All three unchecked, as
    // they are read on every packet: private, and no access to one overlaps another (`receive`
    // reads `borrowedChain` once, before any consumer runs, and the others around the walk).
    @exclusivity(unchecked) private var borrowedChain: Unmanaged<ConsumerChain>?
    @exclusivity(unchecked) private var walks = 0
    @exclusivity(unchecked) private var retiredChains: [ConsumerChain] = []
    // Counted on every packet; unchecked like `borrowedChain`: private, and touched only in
    // `receive` and `linkChanged`, neither of which a consumer can reach from inside the other.
    @exclusivity(unchecked) private var counter = PacketCounter()
    /// The orientation written into the packets of a family whose packets carry none.
    private var estimatedOrientation = EstimatedOrientation()

    /// A feed for the controller at `address` of `family`, disconnected, with no consumer.
    public init(address: String, family: ControllerFamily = .daydream) {
        self.address = address
        self.family = family
        decodesDaydream = family.id == .daydream
    }

    /// How many consumers are attached.
    public var consumerCount: Int { consumers.count }

    /// Hands everything from now on to `consumer` too (after those attached before); nothing
    /// when it is attached already. It is not told the current state: read it from the feed.
    public func attach(_ consumer: any ControllerConsumer) {
        guard !consumers.contains(where: { $0 === consumer }) else { return }
        consumers.append(consumer)
    }

    /// Stops handing anything to `consumer`.
    public func detach(_ consumer: any ControllerConsumer) {
        consumers.removeAll { $0 === consumer }
    }

    /// Asks the transport for a battery reading.
    public func readBattery() {
        batteryReader?()
    }

    /// Lends the controller to another program (`true`) or takes it back (`false`), through the
    /// transport; nil when the transport cannot lend (a recording), false when the controller is
    /// not connected now.
    public func setLent(_ lent: Bool) -> Bool? {
        lender?(lent)
    }

    // MARK: From the transport

    /// Decodes one notification, received at `time`, and hands the packet to every consumer:
    /// the one decode of the packet path. One that is not a packet is counted in
    /// `statistics.malformed` and dropped; a command echo goes to `commandEchoed`, never to the
    /// consumers. The bytes are valid only during the call.
    public func receive(_ bytes: UnsafeRawBufferPointer, at time: MonotonicTime) {
        // The Daydream's packet is built where it is handed on, on a path of its own: joined
        // with another family's decode, every field was gathered from either and stored again.
        guard decodesDaydream else { return receiveOfOtherFamily(bytes, at: time) }
        let packet: DaydreamPacket
        do {
            packet = try DaydreamPacket(bytes: bytes)
        } catch {
            dropMalformed(at: time)
            return
        }
        receive(packet, at: time)
    }

    /// `receive(_:at:)` of a family other than the Daydream, through its family's decoder.
    @inline(never)
    private func receiveOfOtherFamily(_ bytes: UnsafeRawBufferPointer, at time: MonotonicTime) {
        var packet: DaydreamPacket
        do {
            packet = try family.decode(bytes)
        } catch {
            if case .commandEcho(let command) = error {
                commandEchoed?(command)
                return
            }
            dropMalformed(at: time)
            return
        }
        if family.orientation == .estimated { estimatedOrientation.apply(to: &packet, at: time) }
        if let battery = packet.battery { packetCarriesBattery(Int(battery), at: time) }
        receive(packet, at: time)
    }

    /// A level a packet carries (the Gear VR's byte 59) is a reading like the Battery Service's:
    /// handed on as `batteryChanged` when it differs from the last one.
    private func packetCarriesBattery(_ percent: Int, at time: MonotonicTime) {
        guard min(percent, 100) != batteryPercent else { return }
        batteryChanged(percent: percent, at: time)
    }

    /// Counts a notification that is not a packet and tells every consumer it was dropped.
    @inline(never)
    private func dropMalformed(at time: MonotonicTime) {
        counter.countMalformed()
        for consumer in consumers { consumer.malformedNotificationDropped(at: time) }
    }

    /// Counts one packet, received at `time`, and hands it to every consumer: a packet of
    /// several IMU samples (the Gear VR's three) as one packet a sample, oldest first, each with
    /// its own sample time (`DaydreamPacket.forSample`), the packet as decoded last. Inlined into
    /// `receive(_:at:)` of the bytes: the packet path makes one call from the stream to the consumers.
    @inline(__always)
    public func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
        counter.count(sequence: packet.sequence)
        guard let borrowedChain else { return }
        walks &+= 1
        if packet.sampleCount > 1 {
            for index in 0..<(Int(packet.sampleCount) - 1) {
                let sample = packet.forSample(index)
                withBorrowed(borrowedChain) { $0.deliverHere(sample, at: time) }
            }
        }
        withBorrowed(borrowedChain) { $0.deliverHere(packet, at: time) }
        walks &-= 1
        if walks == 0, !retiredChains.isEmpty { retiredChains.removeAll() }
    }

    /// Makes the chain of the consumers attached now the one packets go through.
    private func replaceChain() {
        if walks > 0, let chain { retiredChains.append(chain) }
        chain = ConsumerChain.of(consumers)
        borrowedChain = chain.map { Unmanaged.passUnretained($0) }
    }

    /// Records the link's state and tells every consumer; nothing when it is unchanged. Nothing
    /// counts as lost across a change.
    public func linkChanged(connected: Bool, at time: MonotonicTime) {
        guard connected != isConnected else { return }
        counter.restartSequence()
        estimatedOrientation.linkRestarted()
        isConnected = connected
        for consumer in consumers { consumer.linkChanged(connected: connected, at: time) }
    }

    /// Records whether the controller is lent and tells every consumer; nothing when unchanged.
    public func lendingChanged(lent: Bool, at time: MonotonicTime) {
        guard lent != isLent else { return }
        isLent = lent
        for consumer in consumers { consumer.lendingChanged(lent: lent, at: time) }
    }

    /// Records a battery reading (clamped to 0...100) and tells every consumer.
    public func batteryChanged(percent: Int, at time: MonotonicTime) {
        let clamped = min(max(percent, 0), 100)
        batteryPercent = clamped
        for consumer in consumers { consumer.batteryChanged(percent: clamped, at: time) }
    }

    /// Merges newly read strings into `deviceInformation` and tells every consumer the result.
    public func deviceInformationChanged(_ information: ControllerDeviceInformation) {
        deviceInformation = deviceInformation.updated(with: information)
        for consumer in consumers { consumer.deviceInformationChanged(deviceInformation) }
    }
}
