/// The Device Information Service strings of a controller; nil until read.
public struct ControllerDeviceInformation: Hashable, Sendable {
    public var manufacturer: String?
    public var modelNumber: String?
    public var serialNumber: String?
    public var hardwareVersion: String?
    public var firmwareVersion: String?
    public var softwareVersion: String?

    public init(
        manufacturer: String? = nil, modelNumber: String? = nil, serialNumber: String? = nil,
        hardwareVersion: String? = nil, firmwareVersion: String? = nil, softwareVersion: String? = nil
    ) {
        self.manufacturer = manufacturer
        self.modelNumber = modelNumber
        self.serialNumber = serialNumber
        self.hardwareVersion = hardwareVersion
        self.firmwareVersion = firmwareVersion
        self.softwareVersion = softwareVersion
    }

    /// This, with every string `newer` has taking the place of the old one.
    public func updated(with newer: ControllerDeviceInformation) -> ControllerDeviceInformation {
        ControllerDeviceInformation(
            manufacturer: newer.manufacturer ?? manufacturer, modelNumber: newer.modelNumber ?? modelNumber,
            serialNumber: newer.serialNumber ?? serialNumber, hardwareVersion: newer.hardwareVersion ?? hardwareVersion,
            firmwareVersion: newer.firmwareVersion ?? firmwareVersion, softwareVersion: newer.softwareVersion ?? softwareVersion)
    }
}
