import Timebase

/// The model as one consumer of a `ControllerFeed`: packets update the elements (and run the
/// handlers and the long-press timers), link changes call `markConnected()` and
/// `markDisconnected()`, readings set the battery level and the device information.
extension DDController: ControllerConsumer {
    public func linkChanged(connected: Bool, at time: MonotonicTime) {
        if connected { markConnected() } else { markDisconnected() }
    }

    public func batteryChanged(percent: Int, at time: MonotonicTime) {
        setBatteryLevel(percent: percent)
    }

    /// Counted in `statistics.malformed`, as a notification handed to the model directly is.
    public func malformedNotificationDropped(at time: MonotonicTime) {
        countMalformed()
    }

    public func deviceInformationChanged(_ information: ControllerDeviceInformation) {
        setDeviceInformation(
            manufacturer: information.manufacturer, modelNumber: information.modelNumber,
            serialNumber: information.serialNumber, hardwareVersion: information.hardwareVersion,
            firmwareVersion: information.firmwareVersion, softwareVersion: information.softwareVersion)
    }

    /// Feeds this model from `feed`: attaches it, and lets `updateBatteryLevel()` ask the feed's transport.
    public func follow(_ feed: ControllerFeed) {
        feed.attach(self)
        batteryLevelReader = { [weak feed] _ in feed?.readBattery() }
    }
}
