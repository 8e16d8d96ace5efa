import DSU
import DaydreamProtocol
import Testing
import Timebase

/// The Daydream packets of protocol.md, as a DSU slot sends them.
@Suite struct ControllerPadMapperTests {
    static func packet(_ hex: String) throws -> DaydreamPacket {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
            index = next
        }
        return try DaydreamPacket(bytes)
    }

    @Test func flatOnATableReadsMinusOneGOnY() throws {
        // acc (0, 520, 11) counts at 8 g / 4095: y 1.016 g up, sent negated.
        var mapper = ControllerPadMapper()
        let pad = mapper.update(with: try Self.packet("5BEBFFB825FDB000041000B00000000000000000"), receivedAt: .seconds(1))
        #expect(abs(pad.acceleration.y - Float(-520.0 * 8 / 4095)) < 1e-6)
        #expect(abs(pad.acceleration.z - Float(-11.0 * 8 / 4095)) < 1e-6)
        #expect(pad.acceleration.x == 0)
        #expect(pad.gyro == (0, 0, 0))
        #expect(pad.isActive)
        #expect(pad.packetCounter == 1)
        #expect(!pad.touch1.isActive)
        #expect(pad.buttons2.isEmpty && !pad.home && !pad.touchButton)
    }

    @Test func aFingerIsTouchOneScaledToTheDualShockRange() throws {
        // touch (143, 221) of 255; gyro z 12 counts (6.0 deg/s) is roll, negated.
        var mapper = ControllerPadMapper()
        let pad = mapper.update(with: try Self.packet("480BFE87EB00E801841000B00000000191FBA008"), receivedAt: .seconds(1))
        #expect(pad.touch1.isActive)
        #expect(pad.touch1.x == UInt16((143 * 1919 + 127) / 255))
        #expect(pad.touch1.y == UInt16((221 * 941 + 127) / 255))
        #expect(abs(pad.gyro.roll - Float(-12.0 * 2048 / 4095)) < 1e-5)
        #expect(pad.gyro.pitch == 0 && pad.gyro.yaw == 0)
    }

    @Test func volumeUpIsR1() throws {
        var mapper = ControllerPadMapper()
        let pad = mapper.update(with: try Self.packet("26F80361C2002002C40FFE400000000000001011"), receivedAt: .seconds(1))
        #expect(pad.buttons2 == [.r1])
    }

    @Test func eachButtonHasItsDSUButton() {
        let cases: [(DaydreamButtons, DSUPadState.Buttons2, home: Bool, touch: Bool)] = [
            (.click, [.a], false, true), (.app, [.b], false, false), (.home, [], true, false),
            (.volumeUp, [.r1], false, false), (.volumeDown, [.l1], false, false),
        ]
        for (button, expected, home, touch) in cases {
            var mapper = ControllerPadMapper()
            let pad = mapper.update(with: DaydreamPacket(buttons: button), receivedAt: .seconds(1))
            #expect(pad.buttons2 == expected, "\(button.names)")
            #expect(pad.home == home && pad.touchButton == touch, "\(button.names)")
        }
    }

    @Test func rateSignsFollowTheDualShockConvention() {
        // +x (nose up) is pitch up; +y and +z (right-handed about up and back) are yaw and roll
        // to the left, sent negated.
        var mapper = ControllerPadMapper()
        let pad = mapper.update(with: DaydreamPacket(gyro: RawVector(100, 200, -300)), receivedAt: .seconds(1))
        let scale = 2048.0 / 4095.0
        #expect(abs(Double(pad.gyro.pitch) - 100 * scale) < 1e-4)
        #expect(abs(Double(pad.gyro.yaw) + 200 * scale) < 1e-4)
        #expect(abs(Double(pad.gyro.roll) - 300 * scale) < 1e-4)
    }

    @Test func aNewTouchHasANewID() {
        var mapper = ControllerPadMapper()
        let first = mapper.update(with: DaydreamPacket(touchX: 10, touchY: 10), receivedAt: .seconds(1)).touch1.id
        let same = mapper.update(with: DaydreamPacket(touchX: 20, touchY: 10), receivedAt: .seconds(1.016)).touch1.id
        _ = mapper.update(with: DaydreamPacket(), receivedAt: .seconds(1.032))
        let next = mapper.update(with: DaydreamPacket(touchX: 30, touchY: 10), receivedAt: .seconds(1.048)).touch1.id
        #expect(first == same)
        #expect(next == first &+ 1)
    }

    @Test func timestampsFollowTheControllersClockAcrossItsWrap() {
        // 500 ms, then 4 ms after the 512 ms wrap (16 ms on), then a gap of seconds.
        var mapper = ControllerPadMapper()
        let start = mapper.update(with: DaydreamPacket(time: 500), receivedAt: .seconds(10)).motionTimestamp
        let afterWrap = mapper.update(with: DaydreamPacket(time: 4), receivedAt: .seconds(10.016)).motionTimestamp
        #expect(start == 10_000_000)
        #expect(afterWrap - start == 16_000)
        // 2.05 s later by arrival; the controller's clock moved 2.048 s (4 wraps) + 10 ms.
        let later = mapper.update(with: DaydreamPacket(time: 14), receivedAt: .seconds(12.066)).motionTimestamp
        #expect(later - afterWrap == 2_058_000)
    }

    /// Packets no client is sent are only counted: the next one mapped reads as if every one had
    /// been (the counter, a touch begun meanwhile as a new id, the time from the controller's clock).
    @Test func skippedPacketsCountAsIfMapped() {
        var mapped = ControllerPadMapper()
        var skipping = ControllerPadMapper()
        // 40 packets 16 ms apart: a touch, a lift, a new touch; the second mapper maps the first and last only.
        var packets: [(DaydreamPacket, MonotonicTime)] = []
        for tick in 0..<40 {
            let finger: UInt16 = tick < 10 || tick > 20 ? 100 : 0
            let packet = DaydreamPacket(time: UInt16(tick * 16 % 512), touchX: finger, touchY: finger)
            packets.append((packet, MonotonicTime.seconds(5) + TimeSpan.milliseconds(Int64(tick * 16))))
        }
        var every: [DSUPadState] = []
        for (packet, time) in packets { every.append(mapped.update(with: packet, receivedAt: time)) }
        let first = skipping.update(with: packets[0].0, receivedAt: packets[0].1)
        for (packet, _) in packets.dropFirst().dropLast() { skipping.skip(packet) }
        let last = skipping.update(with: packets[39].0, receivedAt: packets[39].1)
        #expect(first.packetCounter == 1 && last.packetCounter == 40)
        #expect(every[39].packetCounter == 40)
        #expect(last.touch1.id == every[39].touch1.id && last.touch1.id == first.touch1.id &+ 1)
        #expect(last.motionTimestamp - first.motionTimestamp == 39 * 16_000)
        #expect(last.motionTimestamp == every[39].motionTimestamp)
        let mappedLast = every[39]
        #expect(last.touch1.x == mappedLast.touch1.x)
        #expect(last.acceleration.y == mappedLast.acceleration.y)
    }

    @Test func batteryCodes() {
        #expect(DSUControllerInfo.Battery(percent: nil) == .notApplicable)
        #expect(DSUControllerInfo.Battery(percent: 100) == .full)
        #expect(DSUControllerInfo.Battery(percent: 75) == .high)
        #expect(DSUControllerInfo.Battery(percent: 50) == .medium)
        #expect(DSUControllerInfo.Battery(percent: 20) == .low)
        #expect(DSUControllerInfo.Battery(percent: 5) == .dying)
    }
}
