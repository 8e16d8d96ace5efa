import TestSupport
import Testing

@testable import VirtualHID

@Suite struct DualSenseFeatureReportsTests {
    let reports = DualSenseFeatureReports(address: DualSenseAddress(controllerAddress: "EC:12:34:56:78:9A"))

    private func int16(_ report: [UInt8], _ offset: Int) -> Int {
        Int(Int16(bitPattern: UInt16(report[offset]) | UInt16(report[offset + 1]) << 8))
    }

    @Test func answersEachFeatureWithItsIdAndLength() throws {
        for feature in DualSenseReportID.features {
            let report = try #require(reports.report(id: feature.rawValue))
            #expect(report.count == feature.length)
            #expect(report.first == feature.rawValue)
            // hid-playstation's check on Bluetooth: CRC-32 of 0xA3 and all but the last four bytes.
            #expect(BitwiseCRC32.littleEndianTail(of: report) == BitwiseCRC32.of([0xA3] + report.dropLast(4)),
                    "report \(feature)'s CRC")
        }
        #expect(reports.report(id: 0x01) == nil)
        #expect(reports.report(id: 0x31) == nil)
        #expect(reports.report(id: 0x08) == nil)
    }

    /// hid-playstation's `dualsense_get_calibration_data` and its scaling in
    /// `dualsense_parse_report`, worked on the report's fields.
    @Test func calibrationMakesTheKernelScaleGyroBy64AndAccelerationBy1() {
        let report = reports.calibration
        let speed2x = int16(report, 19) + int16(report, 21)
        for axis in 0..<3 {
            let bias = int16(report, 1 + 2 * axis)
            let plus = int16(report, 7 + 4 * axis)
            let minus = int16(report, 9 + 4 * axis)
            let numerator = speed2x * DualSenseMotionUnits.kernelGyroUnitsPerDegreePerSecond
            let oneDegreePerSecond = Int(DualSenseMotionUnits.gyroCountsPerDegreePerSecond)
            #expect(numerator * (oneDegreePerSecond - bias) / (plus - minus) == 1024)
            #expect(numerator * (-2048 * oneDegreePerSecond - bias) / (plus - minus) == -2048 * 1024)
            // SDL keeps a calibration within half of 64 of its gyro factor, with |bias| <= 1024.
            let sdlSensitivity = Double(numerator) / Double(plus - minus)
            #expect(abs(1 - sdlSensitivity / 64) <= 0.5)
            #expect(abs(bias) <= 1024)
        }
        for axis in 0..<3 {
            let plus = int16(report, 23 + 4 * axis)
            let minus = int16(report, 25 + 4 * axis)
            let range = plus - minus
            let bias = plus - range / 2
            let oneG = Int(DualSenseMotionUnits.accelerationCountsPerG)
            #expect(2 * 8192 * (oneG - bias) / range == DualSenseMotionUnits.kernelAccelerationUnitsPerG)
            #expect(2 * 8192 * (-4 * oneG - bias) / range == -4 * 8192)
        }
        #expect(report[35..<37].allSatisfy { $0 == 0 })
    }

    @Test func pairingInfoHoldsTheAddressLeastSignificantFirst() {
        let report = reports.pairingInfo
        #expect(Array(report[1...6]) == [0x9A, 0x78, 0x56, 0x34, 0x12, 0xEE])
        // The kernel prints those six bytes reversed (%pMR) as uniq.
        let printed = report[1...6].reversed().map { byte in
            (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
        }.joined(separator: ":")
        #expect(printed == reports.address.uniq)
        #expect(report[7..<16].allSatisfy { $0 == 0 })
    }

    @Test func firmwareInfoHoldsTheVersionsAtTheDriversOffsets() {
        let report = reports.firmwareInfo
        #expect(Array(report[24...27]) == [0x01, 0x00, 0x00, 0x00])
        #expect(Array(report[28...31]) == [0x10, 0x01, 0x00, 0x00])
        #expect(Array(report[44...45]) == [0x10, 0x01])
    }
}
