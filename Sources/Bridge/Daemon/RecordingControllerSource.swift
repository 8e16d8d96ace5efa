import DaydreamCore
import EventLoop
import Recording
import Timebase

/// A controller played from a recording on the daemon's loop, in real time: `run --replay FILE`,
/// for trying a config and for testing the daemon (signals, reload, profile switches) without Bluetooth.
/// When the recording ends the controller stays connected and silent, as a controller at rest does.
@MainActor
public final class RecordingControllerSource {
    private let recording: Recording
    private let reactor: Reactor
    private var timer: ScheduledTimer?
    private var origin = MonotonicTime.zero
    private var nextIndex = 0
    /// The controller, once started.
    public private(set) var controller: DDController?

    /// A source for `recording`, timed by `reactor`.
    public init(recording: Recording, reactor: Reactor) {
        self.recording = recording
        self.reactor = reactor
    }

    /// Makes the controller, hands it to `found`, connects it and starts playing.
    public func start(found: (DDController) -> Void) {
        let info = recording.info
        let controller = DDController(address: info.address ?? "00:00:00:00:00:00", scheduler: reactor)
        controller.setDeviceInformation(
            manufacturer: info.manufacturer, modelNumber: info.model, serialNumber: info.serial,
            hardwareVersion: info.hardware, firmwareVersion: info.firmware, softwareVersion: info.software
        )
        if let battery = info.battery { controller.setBatteryLevel(percent: battery) }
        self.controller = controller
        found(controller)
        controller.markConnected()
        origin = reactor.now
        scheduleNext()
    }

    /// Stops playing.
    public func stop() {
        timer?.cancel()
        timer = nil
    }

    private func scheduleNext() {
        guard nextIndex < recording.entries.count else {
            Logger.info("end of the recording; the controller stays connected")
            return
        }
        let entry = recording.entries[nextIndex]
        timer = reactor.schedule(at: origin + entry.time) { [weak self] in
            guard let self else { return }
            self.nextIndex += 1
            self.apply(entry.event)
            self.scheduleNext()
        }
    }

    private func apply(_ event: RecordingEvent) {
        guard let controller else { return }
        switch event {
        case .packet(let packet): controller.handle(packet, at: reactor.now)
        case .connected: controller.markConnected()
        case .disconnected: controller.markDisconnected()
        case .battery(let percent): controller.setBatteryLevel(percent: percent)
        }
    }
}
