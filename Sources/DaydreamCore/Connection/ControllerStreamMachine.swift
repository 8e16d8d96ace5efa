import DaydreamProtocol
import EventLoop
import Timebase

/// Runs a family's `StreamProtocol` on a subscribed link: the start sequence (each command
/// written only after the echo of the one before it that waits for one: the Gear VR's `0100`
/// never before the `08 00` echo), the keep-alive, the restarts after a silence (and the link
/// given up after the last), and the stop command when the bridge lets go.
///
/// Its states are `State`, moved only through the table in `transition(from:on:tries:)`. It
/// writes through `write` and reads how many packets arrived from `packetsReceived` (checked
/// on its timers: nothing runs per packet). The Daydream, whose protocol writes nothing, gets none.
@MainActor
public final class ControllerStreamMachine {
    /// Where the start sequence is.
    public enum State: Equatable, Sendable, StateMachineName {
        /// Not subscribed, or stopped.
        case idle
        /// Writing the start sequence; `restarts` so far since the stream last held.
        case starting(restarts: Int)
        /// The command of step `step` is written; its echo is awaited.
        case awaitingEcho(step: Int, restarts: Int)
        /// The sequence is written: packets flow.
        case streaming(restarts: Int)
        /// Every restart failed: the link is down.
        case down

        public var name: String {
            switch self {
            case .idle: "idle"
            case .starting: "starting"
            case .awaitingEcho(let step, _): "awaiting echo of step \(step)"
            case .streaming: "streaming"
            case .down: "down"
            }
        }
    }

    /// What happens to the sequence.
    public enum Event: Equatable, Sendable, StateMachineName {
        case subscribed
        case wroteAwaitingEcho(step: Int)
        case echoed
        case sequenceWritten
        case packetsArrived
        case silence
        case stopped

        public var name: String {
            switch self {
            case .subscribed: "subscribed"
            case .wroteAwaitingEcho: "wrote, awaiting echo"
            case .echoed: "echoed"
            case .sequenceWritten: "sequence written"
            case .packetsArrived: "packets arrived"
            case .silence: "silence"
            case .stopped: "stopped"
            }
        }
    }

    /// Where `event` leads from `state`, with `tries` restarts allowed; nil: no edge (a bug).
    public nonisolated static func transition(from state: State, on event: Event, tries: Int) -> State? {
        switch (state, event) {
        case (.idle, .subscribed): .starting(restarts: 0)
        case (.starting(let restarts), .wroteAwaitingEcho(let step)): .awaitingEcho(step: step, restarts: restarts)
        case (.awaitingEcho(_, let restarts), .echoed): .starting(restarts: restarts)
        case (.starting(let restarts), .sequenceWritten): .streaming(restarts: restarts)
        case (.streaming, .packetsArrived): .streaming(restarts: 0)
        case (.awaitingEcho, .packetsArrived), (.starting, .packetsArrived): state
        case (.streaming(let restarts), .silence), (.awaitingEcho(_, let restarts), .silence):
            restarts < tries ? .starting(restarts: restarts + 1) : .down
        case (_, .stopped): .idle
        default: nil
        }
    }

    /// The family's protocol.
    public let stream: StreamProtocol
    /// Writes a command; a failed write is logged, and the silence that follows restarts.
    public var write: (@MainActor ([UInt8]) -> Void)?
    /// How many packets the feed has received so far.
    public var packetsReceived: (@MainActor () -> Int)?
    /// Every restart failed: the link is down.
    public var onDown: (@MainActor () -> Void)?
    /// A silence restarted the sequence (nothing to write: the link subscribes again).
    public var onRestart: (@MainActor () -> Void)?

    private var machine: StateMachine<State, Event>
    private let scheduler: any DeadlineScheduler
    private let log: LogSink
    private let label: String
    private var silenceTimer: ScheduledTimer?
    private var keepAliveTimer: ScheduledTimer?
    private var packetsAtLastCheck = 0
    /// When a check last saw new packets (or the sequence was last written).
    private var lastProgress = MonotonicTime.zero
    /// How often the silence is looked at: its resolution.
    private static let checkInterval = TimeSpan.milliseconds(1000)

    /// A machine for `stream`, idle.
    public init(stream: StreamProtocol, scheduler: any DeadlineScheduler, log: LogSink, label: String) {
        self.stream = stream
        self.scheduler = scheduler
        self.log = log
        self.label = label
        let tries = stream.restartTries
        machine = StateMachine(.idle, label: "\(label) stream", transition: { Self.transition(from: $0, on: $1, tries: tries) })
    }

    public var state: State { machine.state }

    private var silence: TimeSpan? { stream.restartAfterSilenceMilliseconds.map { TimeSpan.milliseconds(Int64($0)) } }

    /// The input notifications flow: start the sequence.
    public func subscribed() {
        guard machine.apply(.subscribed, log: log) else { return }
        packetsAtLastCheck = packetsReceived?() ?? 0
        writeSequence(from: 0)
    }

    /// A 2-byte notification: the echo of `command` (as the controller sent it, little endian).
    public func echoed(_ command: UInt16) {
        let bytes = [UInt8(command & 0xFF), UInt8(command >> 8)]
        guard case .awaitingEcho(let step, _) = state, stream.start[step].command == bytes else {
            log.debug("\(label): command echo \(Hex.encode(bytes)) not awaited; ignored")
            return
        }
        machine.apply(.echoed, log: log)
        writeSequence(from: step + 1)
    }

    /// The bridge lets go: the stop command when anything was started, every timer off.
    public func stop(writeStop: Bool = true) {
        let wasStarted = state != .idle && state != .down
        silenceTimer?.cancel()
        keepAliveTimer?.cancel()
        silenceTimer = nil
        keepAliveTimer = nil
        if state != .idle { machine.apply(.stopped, log: log) }
        if writeStop, wasStarted, let command = stream.stop { write?(command) }
    }

    /// Writes the steps from `first` until one awaits its echo, or all are written.
    private func writeSequence(from first: Int) {
        lastProgress = scheduler.now
        var step = first
        while step < stream.start.count {
            let command = stream.start[step]
            write?(command.command)
            if command.awaitsEcho {
                machine.apply(.wroteAwaitingEcho(step: step), log: log)
                armSilenceCheck()
                return
            }
            step += 1
        }
        machine.apply(.sequenceWritten, log: log)
        armSilenceCheck()
        armKeepAlive()
    }

    /// The longest wait allowed in the current state: the echo's time-out, or the silence.
    private var allowedWait: TimeSpan? {
        if case .awaitingEcho = state { return TimeSpan.milliseconds(Int64(stream.echoTimeoutMilliseconds)) }
        return silence
    }

    /// Looks again in a second (or when the wait runs out, if sooner).
    private func armSilenceCheck() {
        silenceTimer?.cancel()
        silenceTimer = nil
        guard let wait = allowedWait else { return }
        let next = min(lastProgress + wait, scheduler.now + Self.checkInterval)
        silenceTimer = scheduler.schedule(at: max(next, scheduler.now)) { [weak self] in self?.checkSilence() }
    }

    private func armKeepAlive() {
        keepAliveTimer?.cancel()
        keepAliveTimer = nil
        guard let command = stream.keepAlive else { return }
        keepAliveTimer = scheduler.schedule(at: scheduler.now + .milliseconds(Int64(stream.keepAliveMilliseconds))) { [weak self] in
            guard let self, case .streaming = state else { return }
            write?(command)
            armKeepAlive()
        }
    }

    /// Packets since the last check: the stream holds. None: restart, or give up.
    private func checkSilence() {
        silenceTimer = nil
        let received = packetsReceived?() ?? 0
        defer { packetsAtLastCheck = received }
        if received != packetsAtLastCheck {
            machine.apply(.packetsArrived, log: log)
            if case .streaming = state { lastProgress = scheduler.now }
            armSilenceCheck()
            return
        }
        if let wait = allowedWait, scheduler.now < lastProgress + wait {
            armSilenceCheck()
            return
        }
        guard machine.apply(.silence, log: log) else { return }
        keepAliveTimer?.cancel()
        keepAliveTimer = nil
        switch state {
        case .starting(let restarts):
            log.info("\(label): no packet for a while; starting the stream again (try \(restarts) of \(stream.restartTries))")
            if stream.start.isEmpty {
                lastProgress = scheduler.now
                onRestart?()
                armSilenceCheck()
            } else {
                writeSequence(from: 0)
            }
        case .down:
            log.info("\(label): the stream did not start again; the link is down")
            onDown?()
        default:
            break
        }
    }
}
