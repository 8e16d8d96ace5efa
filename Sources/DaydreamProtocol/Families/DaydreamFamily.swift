extension ControllerFamily {
    /// Google's Daydream View controller: 20-byte packets on FE55, one IMU sample each, its own
    /// fused orientation; nothing is ever written to it.
    public static let daydream = ControllerFamily(
        id: .daydream, name: "daydream", displayName: "Daydream controller", isExperimental: false,
        discovery: Discovery(namePrefixes: [DaydreamGATT.advertisedName], serviceUUIDs: [DaydreamGATT.serviceUUID], exactName: true),
        gatt: GATTProfile(
            dataService: DaydreamGATT.serviceUUID, input: DaydreamGATT.inputCharacteristicUUID, command: nil,
            packetLength: PacketLayout.length, untouchable: [DaydreamGATT.firmwareUpdateServiceUUID],
            serviceLayout: DaydreamGATT.serviceLayout),
        stream: StreamProtocol(),
        buttons: [.click, .home, .app, .volumeUp, .volumeDown],
        scale: .daydream, samplesPerPacket: 1,
        decode: { bytes throws(PacketDecodingError) in try DaydreamPacket(bytes: bytes) },
        encode: { packet in packet.daydreamBytes },
        json: { packet in packet.daydreamJSONLine },
        orientation: .firmware)
}
