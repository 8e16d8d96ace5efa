import DaydreamCore
import DaydreamProtocol
import Recording
import Timebase

/// Plays a recording into a `DDController` on virtual time: entry by entry, with the timers
/// (long press, the mapping's deadlines) that fall between entries run at their own times.
///
/// Time starts at zero; an entry at offset `t` happens at `MonotonicTime(nanoseconds: t)`. The
/// caller decides how fast time goes: `replay --fast` steps at once, `replay` sleeps until each
/// `nextTime`, `monitor --replay` waits in its own loop. The controller starts connected.
@MainActor
public final class RecordingPlayer {
    /// The recording being played.
    public let recording: Recording
    /// The controller the entries go to, with the recording's address and device information.
    public let controller: DDController
    /// The virtual clock the controller's and the mapping's timers run on.
    public let scheduler: ManualScheduler
    private var nextIndex = 0

    /// A player at time zero, with `controller` made from the recording's information.
    public init(recording: Recording) {
        self.recording = recording
        scheduler = ManualScheduler(now: .zero)
        let info = recording.info
        controller = DDController(address: info.address ?? "00:00:00:00:00:00", scheduler: scheduler)
        controller.setDeviceInformation(
            manufacturer: info.manufacturer, modelNumber: info.model, serialNumber: info.serial,
            hardwareVersion: info.hardware, firmwareVersion: info.firmware, softwareVersion: info.software
        )
        if let battery = info.battery { controller.setBatteryLevel(percent: battery) }
    }

    /// Marks the controller connected: call after attaching handlers, before the first step.
    public func start() {
        controller.markConnected()
    }

    /// The time of the next thing to do (an entry or a timer), or nil when the recording is over
    /// and no timer is waiting.
    public var nextTime: MonotonicTime? {
        let entryTime = nextIndex < recording.entries.count
            ? MonotonicTime(nanoseconds: recording.entries[nextIndex].time.nanoseconds) : nil
        switch (entryTime, scheduler.nextDeadline) {
        case (let entry?, let timer?): return min(entry, timer)
        case (let entry?, nil): return entry
        case (nil, let timer?): return timer
        case (nil, nil): return nil
        }
    }

    /// True when every entry has been played.
    public var entriesFinished: Bool { nextIndex >= recording.entries.count }

    /// The current virtual time.
    public var now: MonotonicTime { scheduler.now }

    /// Plays everything due at or before `time`: timers and entries in time order (a timer due at
    /// an entry's time runs first).
    public func play(upTo time: MonotonicTime) {
        while nextIndex < recording.entries.count {
            let entry = recording.entries[nextIndex]
            let entryTime = MonotonicTime(nanoseconds: entry.time.nanoseconds)
            guard entryTime <= time else { break }
            scheduler.advance(to: entryTime)
            nextIndex += 1
            apply(entry.event, at: entryTime)
        }
        scheduler.advance(to: time)
    }

    /// Plays the entries and timers up to the last entry, as fast as possible.
    public func playAll() {
        while let time = nextTime, !entriesFinished {
            play(upTo: time)
        }
    }

    private func apply(_ event: RecordingEvent, at time: MonotonicTime) {
        switch event {
        case .packet(let packet):
            controller.handle(packet, at: time)
        case .connected:
            controller.markConnected()
        case .disconnected:
            controller.markDisconnected()
        case .battery(let percent):
            controller.setBatteryLevel(percent: percent)
        }
    }
}
