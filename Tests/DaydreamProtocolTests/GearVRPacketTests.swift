import Testing
import DaydreamProtocol

/// The Gear VR's 60-byte packet, built by hand from the layout in the design notes
/// (little endian: three samples of time u32, accelerometer and gyroscope i16 x3; magnetometer
/// at 48; touch at 54-56; temperature 57; buttons 58; battery 59).
@Suite("Gear VR packets")
struct GearVRPacketTests {
    /// A packet with distinct values in every field, written byte by byte.
    static func handMade(
        times: [UInt32] = [1_000_000, 1_004_850, 1_009_700], touch: (x: Int, y: Int, state: UInt8) = (160, 200, 0x10),
        buttons: UInt8 = 0x41, battery: UInt8 = 77
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        func u16(_ value: Int) { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        for (index, time) in times.enumerated() {
            bytes += [UInt8(time & 0xFF), UInt8(time >> 8 & 0xFF), UInt8(time >> 16 & 0xFF), UInt8(time >> 24)]
            u16(100 * index + 1); u16(-2); u16(2048)  // acceleration
            u16(14 + index); u16(-286); u16(-32768 + index)  // gyro
        }
        u16(-300); u16(5); u16(32767)  // magnetometer
        bytes += [touch.state | UInt8(touch.x >> 6), UInt8((touch.x & 0x3F) << 2 | touch.y >> 8), UInt8(touch.y & 0xFF)]
        bytes += [31, buttons, battery]
        return bytes
    }

    static func decode(_ bytes: [UInt8]) throws(PacketDecodingError) -> DaydreamPacket {
        try bytes.withUnsafeBytes { raw in Result { () throws(PacketDecodingError) in try DaydreamPacket(gearVR: raw) } }.get()
    }

    @Test func decodesEveryFieldAsTheLayoutPlacesIt() throws {
        let packet = try Self.decode(Self.handMade())
        #expect(packet.family == .gearVR)
        #expect(packet.sampleCount == 3)
        // On the common axes: (x, z, -y) of the counts sent.
        #expect(packet.sample(0) == IMUSample(time: 1_000_000, acceleration: RawVector(1, 2048, 2), gyro: RawVector(14, -32768, 286)))
        #expect(packet.sample(1) == IMUSample(time: 1_004_850, acceleration: RawVector(101, 2048, 2), gyro: RawVector(15, -32767, 286)))
        #expect(packet.sample(2) == IMUSample(time: 1_009_700, acceleration: RawVector(201, 2048, 2), gyro: RawVector(16, -32766, 286)))
        #expect(packet.acceleration == RawVector(201, 2048, 2))
        #expect(packet.extras.magnetometer == RawVector(-300, 5, 32767))
        #expect(packet.touchX == 160 && packet.touchY == 200 && packet.isTouching)
        #expect(packet.extras.temperature == 31)
        #expect(packet.battery == 77)
        // 0x41: the trigger and the idle flag, which is no button.
        #expect(packet.buttons == [.trigger])
        #expect(packet.extras.buttonFlags == 0x40)
    }

    @Test func mapsEveryButtonBit() throws {
        let bits: [(UInt8, DaydreamButtons)] = [
            (0x01, .trigger), (0x02, .home), (0x04, .back), (0x08, .click), (0x10, .volumeUp), (0x20, .volumeDown),
        ]
        for (bit, button) in bits {
            #expect(try Self.decode(Self.handMade(buttons: bit)).buttons == button)
        }
    }

    @Test func scalesAsTheHardwareWasMeasured() throws {
        let packet = try Self.decode(Self.handMade())
        // 2048 counts per g; 14.285 counts per degree per second.
        #expect(abs(packet.accelerationSI.y - 9.80665) < 1e-9)
        let rate = DaydreamPacket(gyro: RawVector(14285, 0, 0))
        var gear = rate
        gear.family = .gearVR
        #expect(abs(gear.rotationRate.x - 1000 * Double.pi / 180) < 1e-9)
        #expect(abs(packet.touchPoint!.x - 160.0 / 315) < 1e-12)
    }

    @Test func touchStatesOtherThanTouchingAreNoFinger() throws {
        for state: UInt8 in [0x20, 0x00] {
            let packet = try Self.decode(Self.handMade(touch: (160, 200, state)))
            #expect(!packet.isTouching)
            #expect(packet.touchPoint == nil)
            #expect(packet.extras.rawTouchX == 160 && packet.extras.rawTouchY == 200)
        }
        // The rim's far edge is clamped to 315; a finger at 0,0 is still a finger.
        let far = try Self.decode(Self.handMade(touch: (1000, 1023, 0x10)))
        #expect(far.touchX == 315 && far.touchY == 315)
        let corner = try Self.decode(Self.handMade(touch: (0, 0, 0x10)))
        #expect(corner.isTouching)
    }

    @Test func aTwoByteNotificationIsAnEchoNeverInput() {
        #expect(throws: PacketDecodingError.commandEcho(0x0008)) { try Self.decode([0x08, 0x00]) }
        #expect(throws: PacketDecodingError.commandEcho(0x0001)) { try Self.decode([0x01, 0x00]) }
    }

    @Test(arguments: [0, 1, 3, 20, 59, 61])
    func otherLengthsAreRefused(count: Int) {
        #expect(throws: PacketDecodingError.familyWrongLength(family: .gearVR, count: count, expected: 60)) {
            try Self.decode([UInt8](repeating: 0, count: count))
        }
    }

    @Test func encodesBackToTheSameBytes() throws {
        for bytes in [Self.handMade(), Self.handMade(touch: (7, 314, 0x20), buttons: 0x3F, battery: 0),
                      Self.handMade(times: [0xFFFF_FFF0, 4, 0x0100_0000], touch: (0, 0, 0x00))] {
            #expect(try Self.decode(bytes).gearVRBytes == bytes)
            #expect(try Self.decode(bytes).bytes == bytes)
        }
    }

    @Test func eachSampleCopyShowsItsOwnSampleAndTime() throws {
        let packet = try Self.decode(Self.handMade())
        let first = packet.forSample(0)
        #expect(first.acceleration == RawVector(1, 2048, 2))
        #expect(first.stamp == ControllerStamp(microseconds: 1_000_000))
        #expect(!first.isLatestSample && packet.isLatestSample)
        let step = packet.forSample(1).stamp!.microseconds(since: first.stamp!)
        #expect(step == 4850)
    }

    @Test func theFamilyIsFoundByNameOrService() {
        #expect(ControllerFamily.recognising(name: "Gear VR Controller(1A2B)", services: [])?.id == .gearVR)
        #expect(ControllerFamily.recognising(name: nil, services: ["4F63756C-7573-2054-6872-65656D6F7465"])?.id == .gearVR)
        #expect(ControllerFamily.recognising(name: "OMVR-1234", services: [])?.id == .oculusGo)
        #expect(ControllerFamily.recognising(name: "Gear VR", services: []) == nil)
        #expect(ControllerFamily.named("gear-vr")?.gatt.packetLength == 60)
        #expect(ControllerFamily.having(.trigger) == ["gear-vr", "oculus-go"])
    }
}

/// The Oculus Go's 20-byte packet, as the second-hand description gives it.
@Suite("Oculus Go packets")
struct OculusGoPacketTests {
    static func handMade(buttons: UInt8 = 0x1F) -> [UInt8] {
        var bytes: [UInt8] = []
        func u16(_ value: Int) { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        u16(0x1234)  // counter
        u16(1); u16(-127); u16(3)  // acceleration
        u16(-5); u16(6); u16(-7)  // magnetometer
        u16(157); u16(300)  // touch
        bytes += [0xAB, buttons]
        return bytes
    }

    static func decode(_ bytes: [UInt8]) throws(PacketDecodingError) -> DaydreamPacket {
        try bytes.withUnsafeBytes { raw in Result { () throws(PacketDecodingError) in try DaydreamPacket(oculusGo: raw) } }.get()
    }

    @Test func decodesTheDescribedLayout() throws {
        let packet = try Self.decode(Self.handMade())
        #expect(packet.family == .oculusGo)
        #expect(packet.extras.counter == 0x1234)
        #expect(packet.acceleration == RawVector(1, -127, 3))
        #expect(abs(packet.accelerationSI.y + 9.80665) < 1e-9)
        #expect(packet.extras.magnetometer == RawVector(-5, 6, -7))
        #expect(packet.touchX == 157 && packet.touchY == 300 && packet.isTouching)
        #expect(packet.buttons == [.home, .back, .trigger, .click])
        #expect(packet.stamp == nil)
        #expect(packet.bytes == Self.handMade())
    }

    @Test func withoutTheTouchingFlagNoFinger() throws {
        let packet = try Self.decode(Self.handMade(buttons: 0x04))
        #expect(!packet.isTouching && packet.buttons == [.trigger])
        #expect(packet.bytes == Self.handMade(buttons: 0x04))
    }

    @Test func otherLengthsAreRefused() {
        #expect(throws: PacketDecodingError.familyWrongLength(family: .oculusGo, count: 60, expected: 20)) {
            try Self.decode([UInt8](repeating: 0, count: 60))
        }
    }
}
