import Foundation
import Glibc
import TestSupport
import Testing

/// A test's private bus goes with the test, even one that throws before it stops the bus.
@MainActor
@Suite struct TestBusTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")))
    func aBusLetGoWithoutStopLeavesNoDaemon() throws {
        var bus: TestBus? = try TestBus()
        let daemon = try #require(bus?.processIdentifier)
        #expect(Glibc.kill(daemon, 0) == 0)
        bus = nil
        #expect(Glibc.kill(daemon, 0) == -1 && errno == ESRCH, "dbus-daemon \(daemon) outlived its TestBus")
    }
}
