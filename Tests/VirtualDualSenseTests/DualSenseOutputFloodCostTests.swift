import Descriptors
import Glibc
import Testing
import Timebase
import VirtualHID

@testable import VirtualDualSense

/// What a flood of output reports costs the bridge per report, beside the floor under it: the
/// one `read(2)` uhid needs for each event (it hands out one event per read). Figures are
/// printed, never asserted: the assertion is only that every report was read and none answered.
@MainActor
@Suite struct DualSenseOutputFloodCostTests {
    static let batches = 2_000
    /// Reports queued before each drain: half uhid's queue, what a paced drain finds.
    static let batch = UHIDDrainPacing.pacedLimit

    static func threadCPUTime() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// A whole `struct uhid_event` carrying a Bluetooth output report (0x31), as uhid queues it.
    static var outputReport: [UInt8] {
        var message = [UInt8](repeating: 0, count: UHIDMessage.eventSize)
        message[0] = 6
        message[4] = 0x31
        message[4 + UHIDMessage.maximumDataSize] = 78
        return message
    }

    @Test func aFloodCostsAboutOneReadAReport() throws {
        let rig = try DualSenseOutputFloodTests.Rig()
        let report = Self.outputReport
        var drainTime: Int64 = 0
        for _ in 0..<Self.batches {
            for _ in 0..<Self.batch { try #require(rig.kernel.send(report)) }
            let start = Self.threadCPUTime()
            rig.set.readAvailable()
            drainTime += Self.threadCPUTime() - start
        }
        let reports = Self.batches * Self.batch
        #expect(rig.read == reports)
        #expect(rig.kernel.messages().isEmpty, "nothing answers an output report")

        // The floor: the same messages read 16 bytes at a time on a bare socket until EAGAIN.
        let floorKernel = try FakeUHIDKernel()
        guard let descriptor = floorKernel.takeDeviceEnd() else { throw SystemCallError("socketpair", code: EBADF) }
        var buffer = [UInt8](repeating: 0, count: UHIDDevice.readSize)
        var floorTime: Int64 = 0
        var floorReads = 0
        for _ in 0..<Self.batches {
            for _ in 0..<Self.batch { try #require(floorKernel.send(report)) }
            let start = Self.threadCPUTime()
            while buffer.withUnsafeMutableBytes({ read(descriptor.rawValue, $0.baseAddress, $0.count) }) > 0 { floorReads += 1 }
            floorTime += Self.threadCPUTime() - start
        }
        #expect(floorReads == reports)

        let perReport = Double(drainTime) / Double(reports)
        let floorPerReport = Double(floorTime) / Double(reports)
        print("""
            uhid output-report flood, \(reports) reports in drains of \(Self.batch): \
            \(Int(perReport)) ns CPU a report (\(Int(1e9 / perReport)) reports/s on one core), \
            floor \(Int(floorPerReport)) ns (one read a report), bridge's own \(Int(perReport - floorPerReport)) ns
            """)
    }
}
