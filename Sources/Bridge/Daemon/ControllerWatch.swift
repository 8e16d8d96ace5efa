import DaydreamCore
import DaydreamProtocol
import EventLoop
import EventVocabulary
import Recording
import Timebase

/// The `watch` streams: what each controller does and what the bridge makes of it, as lines a
/// client can play like a recording. Each line starts with the controller's address and the
/// seconds since the stream began, then a recording's event (a packet in hex, `connected`,
/// `disconnected`, `battery N`), `profile NAME`, or `event DEVICE TYPE CODE VALUE` for each
/// output event (the frames' `SYN_REPORT`s left out); the bridge's own line, `bridge SECONDS
/// config OUTCOME`, says each reading of the config (`WatchLine.configText`). Packets go out at most `maximumRate` a
/// second per controller, the latest one winning; everything else goes out as it happens. The
/// link, battery, profile and config lines are the `BridgeState`'s announcements; packets and output
/// events come from the taps on the feeds. Nothing is tapped while no stream watches.
@MainActor
final class ControllerWatch {
    /// The most packets a second each controller sends to a stream.
    static let maximumRate = 60
    static let packetInterval = TimeSpan(nanoseconds: 1_000_000_000 / Int64(maximumRate))

    private let reactor: Reactor
    private var streams: [(stream: ControlStream, start: MonotonicTime)] = []
    private var taps: [String: PacketTap] = [:]
    private weak var state: BridgeState?
    private var observation: Observation?
    /// Runs when the last stream ends: the taps come off.
    var onIdle: (@MainActor () -> Void)?

    /// Whether any stream watches.
    var isWatching: Bool { !streams.isEmpty }

    init(reactor: Reactor) {
        self.reactor = reactor
    }

    /// Sends the link, battery and profile lines `state` announces.
    func follow(_ state: BridgeState) {
        self.state = state
        observation = state.observe { [weak self] change in self?.heard(change) }
    }

    private func heard(_ change: BridgeState.Change) {
        guard isWatching, let state else { return }
        let now = reactor.now
        switch change {
        case .controllerAdded(let address):
            guard let controller = state.controller(address) else { return }
            for text in Self.lines(of: controller) { send(address, text, at: now) }
        case .controller(let address, let fields):
            guard let controller = state.controller(address) else { return }
            if fields.contains(.connected) { send(address, controller.isConnected ? "connected" : "disconnected", at: now) }
            if fields.contains(.battery), let battery = controller.batteryPercent { send(address, "battery \(battery)", at: now) }
            if fields.contains(.profile) { send(address, "profile \(controller.profile)", at: now) }
            if fields.contains(.gyroBias), let bias = controller.gyroBias { send(address, WatchLine.gyroBiasText(bias), at: now) }
        case .bridge(let fields):
            if fields.contains(.reload), let reload = state.bridge.reload {
                send(WatchLine.bridgeAddress, WatchLine.configText(reload.outcome), at: now)
            }
        }
    }

    /// A controller's link, battery (once read) and profile, as a stream's first lines say them.
    private static func lines(of controller: ControllerStatus) -> [String] {
        [controller.isConnected ? "connected" : "disconnected"]
            + (controller.batteryPercent.map { ["battery \($0)"] } ?? [])
            + ["profile \(controller.profile)"]
    }

    /// Starts `stream`: `ok`, then each controller's state as it is now.
    func add(_ stream: ControlStream) {
        stream.send("ok")
        streams.append((stream, reactor.now))
        for controller in state?.controllers ?? [] {
            for text in Self.lines(of: controller) { stream.send("\(controller.address) 0.000000 \(text)") }
        }
        stream.onEnd = { [weak self, weak stream] in
            guard let self else { return }
            self.streams.removeAll { $0.stream === stream }
            if self.streams.isEmpty { self.onIdle?() }
        }
    }

    /// Tells every stream `text` about the controller at `address`.
    func send(_ address: String, _ text: String, at time: MonotonicTime) {
        for watcher in streams {
            watcher.stream.send("\(address) \(RecordingFormat.formatTime(time - watcher.start)) \(text)")
        }
    }

    /// Sends the output events of one frame.
    func send(_ events: UnsafeBufferPointer<OutputEvent>, of address: String, at time: MonotonicTime) {
        for event in events where !event.isSynReport { send(address, "event " + EventCodeNames.line(event), at: time) }
    }

    /// The consumer to attach to the controller's feed while streams watch.
    func tap(for address: String) -> PacketTap {
        if let tap = taps[address] { return tap }
        let tap = PacketTap(address: address, watch: self, reactor: reactor)
        taps[address] = tap
        return tap
    }

    /// A controller's packets, thinned to `maximumRate`, in order (a newer one sent drops the one
    /// waiting); the one waiting goes out before a disconnect is said.
    final class PacketTap: ControllerConsumer {
        let address: String
        private weak var watch: ControllerWatch?
        private let reactor: Reactor
        private var lastSent: MonotonicTime?
        private var waiting: (packet: DaydreamPacket, time: MonotonicTime)?
        private var timer: ScheduledTimer?

        init(address: String, watch: ControllerWatch, reactor: Reactor) {
            self.address = address
            self.watch = watch
            self.reactor = reactor
        }

        func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
            guard watch?.isWatching == true else { return }
            if let lastSent, time - lastSent < ControllerWatch.packetInterval {
                waiting = (packet, time)
                if timer == nil {
                    timer = reactor.schedule(at: lastSent + ControllerWatch.packetInterval) { [weak self] in self?.sendWaiting() }
                }
                return
            }
            // A packet still waiting is older than this one: sent after it, it would go back in time.
            timer?.cancel()
            timer = nil
            waiting = nil
            send(packet, at: time)
        }

        func linkChanged(connected: Bool, at time: MonotonicTime) {
            if !connected { sendWaiting() }
        }

        private func sendWaiting() {
            timer?.cancel()
            timer = nil
            guard let waiting else { return }
            self.waiting = nil
            send(waiting.packet, at: waiting.time)
        }

        /// Sends `packet` as its 20 bytes in hex, as the link read them (the encoding is exact).
        private func send(_ packet: DaydreamPacket, at time: MonotonicTime) {
            lastSent = time
            let hex = Hex.encode(packet.bytes)
            watch?.send(address, hex, at: time)
        }
    }
}
