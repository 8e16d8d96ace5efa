import Testing

@testable import VirtualHID

@Suite struct DualSenseInputReportEncoderTests {
    @Test func aPadAtRestIsCentredWithNoFinger() {
        var encoder = DualSenseInputReportEncoder()
        encoder.encode(DualSenseInputState())
        let report = encoder.report
        #expect(report.count == 78)
        #expect(report[0] == 0x31)
        let reading = KernelReading(report)
        #expect(reading.crcMatches)
        #expect([reading.x, reading.y, reading.rx, reading.ry] == [128, 128, 128, 128])
        #expect([reading.z, reading.rz] == [0, 0])
        #expect(reading.hat == (0, 0))
        #expect(reading.keys.isEmpty)
        #expect(reading.touches.allSatisfy { !$0.active })
        #expect(reading.batteryCapacity == 100)
    }

    @Test func sticksAndTriggersGoWhereTheDriverReadsThem() {
        var state = DualSenseInputState()
        state.leftStick = .init(x: 1, y: 2)
        state.rightStick = .init(x: 3, y: 4)
        state.leftTrigger = 5
        state.rightTrigger = 250
        var encoder = DualSenseInputReportEncoder()
        encoder.encode(state)
        let reading = KernelReading(encoder.report)
        #expect([reading.x, reading.y, reading.rx, reading.ry, reading.z, reading.rz] == [1, 2, 3, 4, 5, 250])
    }

    @Test func eachButtonIsItsOwnKey() {
        let expected: [(DualSenseInputState.Buttons, String)] = [
            (.square, "BTN_WEST"), (.cross, "BTN_SOUTH"), (.circle, "BTN_EAST"), (.triangle, "BTN_NORTH"),
            (.l1, "BTN_TL"), (.r1, "BTN_TR"), (.l2, "BTN_TL2"), (.r2, "BTN_TR2"), (.create, "BTN_SELECT"),
            (.options, "BTN_START"), (.l3, "BTN_THUMBL"), (.r3, "BTN_THUMBR"), (.ps, "BTN_MODE"),
        ]
        var encoder = DualSenseInputReportEncoder()
        for (button, key) in expected {
            var state = DualSenseInputState()
            state.buttons = button
            state.dpad = .southWest
            encoder.encode(state)
            let reading = KernelReading(encoder.report)
            #expect(reading.keys == [key])
            #expect(reading.hat == (-1, 1), "the hat keeps its nibble beside \(key)")
            #expect(!reading.touchpadClick)
        }
        var state = DualSenseInputState()
        state.buttons = [.touchpad]
        encoder.encode(state)
        #expect(KernelReading(encoder.report).keys.isEmpty)
        #expect(KernelReading(encoder.report).touchpadClick)
    }

    @Test func theHatFollowsTheDPadAxes() {
        var encoder = DualSenseInputReportEncoder()
        for x in Int32(-1)...1 {
            for y in Int32(-1)...1 {
                var state = DualSenseInputState()
                state.dpad = .init(x: x, y: y)
                encoder.encode(state)
                let hat = KernelReading(encoder.report).hat
                #expect(hat.x == Int(x) && hat.y == Int(y), "hat for \(x), \(y)")
            }
        }
    }

    @Test func motionReachesTheKernelInItsUnits() {
        var state = DualSenseInputState()
        state.rotationRate = .init(x: 1, y: -90.5, z: 2047)
        state.acceleration = .init(x: 0, y: -1, z: 0.5)
        var encoder = DualSenseInputReportEncoder()
        encoder.encode(state)
        let reading = KernelReading(encoder.report)
        #expect(reading.gyro == [1024, -92672, 2047 * 1024])
        #expect(reading.acceleration == [0, -8192, 4096])
    }

    @Test func motionBeyondTheRangeClampsInsteadOfWrapping() {
        var state = DualSenseInputState()
        state.rotationRate = .init(x: 5000, y: -5000, z: .nan)
        state.acceleration = .init(x: 9, y: -9, z: .infinity)
        var encoder = DualSenseInputReportEncoder()
        encoder.encode(state)
        let reading = KernelReading(encoder.report)
        #expect(reading.gyro == [32767 * 64, -32768 * 64, 0])
        #expect(reading.acceleration == [32767, -32768, 32767])
    }

    @Test func theSensorClockCountsThirdsOfAMicrosecondAndWraps() {
        var encoder = DualSenseInputReportEncoder()
        var state = DualSenseInputState()
        state.sensorTime = 1_000
        encoder.encode(state)
        #expect(KernelReading(encoder.report).timestamp == 3_000)
        let before = UInt64(UInt32.max / 3)
        state.sensorTime = before
        encoder.encode(state)
        let first = KernelReading(encoder.report).timestamp
        state.sensorTime = before + 4_000
        encoder.encode(state)
        let second = KernelReading(encoder.report).timestamp
        #expect(second < first, "wrapped")
        #expect(second &- first == 12_000)
    }

    @Test func theCounterCountsReports() {
        var encoder = DualSenseInputReportEncoder()
        var counters: [UInt8] = []
        var sequences: [UInt8] = []
        for _ in 0..<258 {
            encoder.encode(DualSenseInputState())
            counters.append(encoder.report[8])
            sequences.append(encoder.report[1])
        }
        #expect(Array(counters.prefix(3)) == [0, 1, 2])
        #expect(counters[255] == 255 && counters[256] == 0 && counters[257] == 1)
        #expect(Array(sequences.prefix(3)) == [0x00, 0x10, 0x20] && sequences[15] == 0xF0 && sequences[16] == 0x00)
    }

    /// The kernel drops a Bluetooth report whose CRC is wrong: every report, whatever changed
    /// in it, carries the right one, and a report with one byte changed does not.
    @Test func everyReportCarriesItsCRC() {
        var encoder = DualSenseInputReportEncoder()
        #expect(KernelReading(encoder.report).crcMatches, "before the first encode")
        var state = DualSenseInputState()
        for step in 0..<40 {
            state.leftStick = .init(x: UInt8(step * 6), y: UInt8(255 - step))
            state.buttons = step.isMultiple(of: 3) ? [.cross, .ps] : []
            state.rotationRate = .init(x: Double(step), y: -Double(step) / 2, z: 0.25)
            state.touch = step.isMultiple(of: 5) ? nil : .init(x: UInt16(step * 40), y: UInt16(step * 20))
            state.sensorTime = UInt64(step) * 12_500
            encoder.encode(state)
            #expect(KernelReading(encoder.report).crcMatches, "report \(step)")
            var damaged = encoder.report
            damaged[2 + step] ^= 0x01
            #expect(!KernelReading(damaged).crcMatches, "report \(step) with byte \(2 + step) changed")
        }
    }

    @Test func aFingerDownMovesAndLiftsWithOneContactNumber() {
        var encoder = DualSenseInputReportEncoder()
        var state = DualSenseInputState()
        state.touch = .init(x: 1919, y: 1079)
        encoder.encode(state)
        var reading = KernelReading(encoder.report)
        #expect(reading.touches[0].active && reading.touches[0].x == 1919 && reading.touches[0].y == 1079)
        #expect(!reading.touches[1].active)
        let firstContact = reading.touches[0].contact

        state.touch = .init(x: 0x123, y: 0x345)
        encoder.encode(state)
        reading = KernelReading(encoder.report)
        #expect(reading.touches[0].active && reading.touches[0].x == 0x123 && reading.touches[0].y == 0x345)
        #expect(reading.touches[0].contact == firstContact)

        state.touch = nil
        encoder.encode(state)
        reading = KernelReading(encoder.report)
        #expect(!reading.touches[0].active)
        #expect(reading.touches[0].contact == firstContact)

        state.touch = .init(x: 10, y: 20)
        encoder.encode(state)
        reading = KernelReading(encoder.report)
        #expect(reading.touches[0].active && reading.touches[0].contact == (firstContact + 1) & 0x7F)
    }

    @Test func touchScalesToTheSurfaceAndClamps() {
        #expect(DualSenseInputState.Touch(normalizedX: 0, normalizedY: 0) == .init(x: 0, y: 0))
        #expect(DualSenseInputState.Touch(normalizedX: 1, normalizedY: 1) == .init(x: 1919, y: 1079))
        #expect(DualSenseInputState.Touch(normalizedX: 0.5, normalizedY: 0.5) == .init(x: 960, y: 540))
        #expect(DualSenseInputState.Touch(normalizedX: -3, normalizedY: 7) == .init(x: 0, y: 1079))
        #expect(DualSenseInputState.Touch(normalizedX: .nan, normalizedY: 0.25) == .init(x: 0, y: 270))
        #expect(DualSenseInputState.Touch(x: 5000, y: 5000) == .init(x: 1919, y: 1079))
    }

    @Test func batteryComesOutAsTheKernelRoundsIt() {
        var encoder = DualSenseInputReportEncoder()
        var state = DualSenseInputState()
        for (percent, capacity) in [(100, 100), (99, 95), (57, 55), (10, 15), (9, 5), (0, 5), (255, 100)] {
            state.batteryPercent = UInt8(percent)
            encoder.encode(state)
            #expect(KernelReading(encoder.report).batteryCapacity == capacity, "\(percent) %")
            #expect(!KernelReading(encoder.report).batteryCharging)
        }
        state.charging = true
        state.batteryPercent = 40
        encoder.encode(state)
        #expect(KernelReading(encoder.report).batteryCharging)
        #expect(KernelReading(encoder.report).batteryCapacity == 45)
    }
}
