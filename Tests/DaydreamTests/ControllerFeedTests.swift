import DaydreamCore
import DaydreamProtocol
import Testing
import Timebase

/// A consumer that writes down everything it hears, in order, under its name.
@MainActor
private final class Transcript: ControllerConsumer {
    let name: String
    private let log: Log

    @MainActor final class Log {
        var lines: [String] = []
    }

    init(_ name: String, into log: Log) {
        self.name = name
        self.log = log
    }

    func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
        log.lines.append("\(name) packet \(packet.sequence), time \(packet.time) at \(time.nanoseconds)")
    }

    func linkChanged(connected: Bool, at time: MonotonicTime) {
        log.lines.append("\(name) \(connected ? "connected" : "disconnected") at \(time.nanoseconds)")
    }

    func batteryChanged(percent: Int, at time: MonotonicTime) {
        log.lines.append("\(name) battery \(percent)")
    }

    func deviceInformationChanged(_ information: ControllerDeviceInformation) {
        log.lines.append("\(name) firmware \(information.firmwareVersion ?? "-") model \(information.modelNumber ?? "-")")
    }
}

/// `ControllerFeed`: every attached consumer hears every packet and link change, in order.
@Suite("controller feed")
@MainActor
struct ControllerFeedTests {
    static let packet: [UInt8] = [0x5B, 0xEB, 0xFF, 0xB8, 0x25, 0xFD, 0xB0, 0x00, 0x04, 0x10,
                                  0x00, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]

    func send(_ feed: ControllerFeed, _ bytes: [UInt8], at nanoseconds: Int64) {
        bytes.withUnsafeBytes { feed.receive($0, at: MonotonicTime(nanoseconds: nanoseconds)) }
    }

    /// A feed with two transcripts attached, `a` then `b`, writing into one log; the first.
    fileprivate func feedWithTwoConsumers() -> (log: Transcript.Log, feed: ControllerFeed, first: Transcript) {
        let log = Transcript.Log()
        let feed = ControllerFeed(address: "C0:DD:EE:00:00:01")
        let first = Transcript("a", into: log)
        feed.attach(first)
        feed.attach(Transcript("b", into: log))
        return (log, feed, first)
    }

    @Test func twoConsumersBothHearPacketsLinkChangesAndReadings() {
        let (log, feed, first) = feedWithTwoConsumers()
        feed.attach(first) // attached already: still heard once
        feed.linkChanged(connected: true, at: MonotonicTime(nanoseconds: 5))
        send(feed, Self.packet, at: 10)
        feed.batteryChanged(percent: 120, at: MonotonicTime(nanoseconds: 11))
        feed.deviceInformationChanged(ControllerDeviceInformation(firmwareVersion: "1.0"))
        feed.deviceInformationChanged(ControllerDeviceInformation(modelNumber: "DDV"))
        feed.linkChanged(connected: false, at: MonotonicTime(nanoseconds: 20))
        feed.linkChanged(connected: false, at: MonotonicTime(nanoseconds: 21)) // no change: nothing told
        #expect(log.lines == [
            "a connected at 5", "b connected at 5",
            "a packet 26, time 183 at 10", "b packet 26, time 183 at 10",
            "a battery 100", "b battery 100",
            "a firmware 1.0 model -", "b firmware 1.0 model -",
            "a firmware 1.0 model DDV", "b firmware 1.0 model DDV",
            "a disconnected at 20", "b disconnected at 20",
        ])
        #expect(feed.consumerCount == 2)
        #expect(!feed.isConnected)
        #expect(feed.batteryPercent == 100)
        #expect(feed.deviceInformation == ControllerDeviceInformation(modelNumber: "DDV", firmwareVersion: "1.0"))
    }

    @Test func aDetachedConsumerHearsNothingMore() {
        let (log, feed, first) = feedWithTwoConsumers()
        feed.detach(first)
        send(feed, Self.packet, at: 1)
        feed.linkChanged(connected: true, at: MonotonicTime(nanoseconds: 2))
        #expect(log.lines == ["b packet 26, time 183 at 1", "b connected at 2"])
        #expect(feed.consumerCount == 1)
    }

    /// A consumer that, hearing a packet, detaches itself and `other` and attaches a newcomer:
    /// the feed holds the only references to all of them.
    @MainActor private final class Rearranger: ControllerConsumer {
        weak var feed: ControllerFeed?
        weak var other: Transcript?
        let log: Transcript.Log
        var newcomer: Transcript?

        init(feed: ControllerFeed, log: Transcript.Log) {
            self.feed = feed
            self.log = log
        }

        func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
            log.lines.append("rearranger packet \(packet.sequence)")
            guard let feed, newcomer == nil else { return }
            let newcomer = Transcript("new", into: log)
            self.newcomer = newcomer
            feed.detach(self)
            if let other { feed.detach(other) }
            feed.attach(newcomer)
        }

        func linkChanged(connected: Bool, at time: MonotonicTime) {}
    }

    @Test func consumersChangedDuringAPacketTakeEffectFromTheNext() {
        let log = Transcript.Log()
        let feed = ControllerFeed(address: "C0:DD:EE:00:00:01")
        weak var rearranger: Rearranger?
        weak var last: Transcript?
        do {
            let made = Rearranger(feed: feed, log: log)
            let after = Transcript("b", into: log)
            made.other = after
            feed.attach(made)
            feed.attach(after)
            rearranger = made
            last = after
        }
        send(feed, Self.packet, at: 1)
        // The packet went to everyone attached when it arrived, the detached included.
        #expect(log.lines == ["rearranger packet 26", "b packet 26, time 183 at 1"])
        // Nothing holds the detached ones once the packet is through.
        #expect(rearranger == nil)
        #expect(last == nil)
        log.lines.removeAll()
        send(feed, Self.packet, at: 2)
        #expect(log.lines == ["new packet 26, time 183 at 2"])
        #expect(feed.consumerCount == 1)
    }

    @Test func theModelIsOneConsumerBesideOthers() {
        let scheduler = ManualScheduler(now: .zero)
        let log = Transcript.Log()
        let feed = ControllerFeed(address: "C0:DD:EE:00:00:01")
        let model = DDController(address: feed.address, scheduler: scheduler)
        model.follow(feed)
        feed.attach(Transcript("other", into: log))
        var reads = 0
        feed.batteryReader = { reads += 1 }
        feed.linkChanged(connected: true, at: scheduler.now)
        let press = DaydreamPacket(buttons: .home)
        var bytes = PacketBytes()
        bytes.withUnsafeMutableBytes { press.encode(into: $0) }
        bytes.withUnsafeBytes { feed.receive($0, at: scheduler.now) }
        feed.batteryChanged(percent: 42, at: scheduler.now)
        feed.deviceInformationChanged(ControllerDeviceInformation(firmwareVersion: "2.1"))
        model.updateBatteryLevel()
        #expect(model.isConnected)
        #expect(model.homeButton.isPressed)
        #expect(model.statistics.received == 1)
        #expect(model.batteryLevel == 0.42)
        #expect(model.firmwareVersion == "2.1")
        #expect(reads == 1)
        // The model's long press still comes from its own timer, for library users.
        #expect(scheduler.nextDeadline == MonotonicTime.zero + .seconds(1))
        feed.linkChanged(connected: false, at: scheduler.now)
        #expect(!model.isConnected)
        #expect(!model.homeButton.isPressed)
        #expect(log.lines.first == "other connected at 0")
        #expect(log.lines.last == "other disconnected at 0")
    }
}
