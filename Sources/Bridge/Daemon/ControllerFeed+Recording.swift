import DaydreamCore
import DaydreamProtocol
import Recording
import Timebase

extension ControllerFeed {
    /// Hands one recorded event to the consumers as the link would: a packet as its bytes.
    public func play(_ event: RecordingEvent, at time: MonotonicTime) {
        switch event {
        case .packet(let packet) where packet.family != .daydream:
            packet.bytes.withUnsafeBytes { receive($0, at: time) }
        case .packet(let packet):
            var bytes = PacketBytes()
            bytes.withUnsafeMutableBytes { packet.encode(into: $0) }
            bytes.withUnsafeBytes { receive($0, at: time) }
        case .connected: linkChanged(connected: true, at: time)
        case .disconnected: linkChanged(connected: false, at: time)
        case .battery(let percent): batteryChanged(percent: percent, at: time)
        }
    }

    /// A feed for the controller a recording was made of, with its device information and battery.
    public static func recorded(_ info: RecordingInfo, at time: MonotonicTime) -> ControllerFeed {
        let feed = ControllerFeed(address: info.address ?? "00:00:00:00:00:00", family: info.controllerFamily)
        feed.deviceInformationChanged(ControllerDeviceInformation(
            manufacturer: info.manufacturer, modelNumber: info.model, serialNumber: info.serial,
            hardwareVersion: info.hardware, firmwareVersion: info.firmware, softwareVersion: info.software))
        if let battery = info.battery { feed.batteryChanged(percent: battery, at: time) }
        return feed
    }
}
