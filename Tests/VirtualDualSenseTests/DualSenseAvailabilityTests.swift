import Descriptors
import Foundation
import Testing

@testable import VirtualDualSense

/// The fallback decision, against a directory that stands for /dev, /sys/module and
/// /lib/modules/<release>.
@Suite struct DualSenseAvailabilityTests {
    private func withSystem(_ body: (URL, DualSenseAvailability.Paths) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dualsense-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sys/module"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("modules"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let paths = DualSenseAvailability.Paths(
            uhid: root.appendingPathComponent("uhid").path, sysModule: root.appendingPathComponent("sys/module").path,
            kernelModules: root.appendingPathComponent("modules").path)
        try body(root, paths)
    }

    private func reason(_ paths: DualSenseAvailability.Paths) -> String? {
        do {
            _ = try DualSenseAvailability.openUHID(paths)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func withoutHidPlayStationItSaysSo() throws {
        try withSystem { root, paths in
            try Data().write(to: URL(fileURLWithPath: paths.uhid))
            try "kernel/drivers/hid/hid-sony.ko.xz:\n".write(
                to: root.appendingPathComponent("modules/modules.dep"), atomically: false, encoding: .utf8)
            #expect(reason(paths)?.hasPrefix("the kernel has no hid-playstation module") == true)
        }
    }

    @Test func withoutUhidItSaysToLoadIt() throws {
        try withSystem { root, paths in
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("sys/module/hid_playstation"), withIntermediateDirectories: true)
            #expect(reason(paths) == "no \(paths.uhid): load the uhid module (sudo modprobe uhid)")
        }
    }

    @Test func anInstalledOrBuiltInModuleCountsAndTheDeviceOpens() throws {
        for list in ["modules.dep", "modules.builtin"] {
            try withSystem { root, paths in
                try Data().write(to: URL(fileURLWithPath: paths.uhid))
                try "kernel/drivers/hid/hid-playstation.ko.xz: kernel/drivers/hid/hid.ko\n".write(
                    to: root.appendingPathComponent("modules/\(list)"), atomically: false, encoding: .utf8)
                #expect(reason(paths) == nil, "\(list)")
            }
        }
    }

    /// A sandbox that hides the module lists (systemd's ProtectKernelModules=, where opening
    /// them fails with EACCES) leaves the question open: the device is tried, and the kernel
    /// loads hid-playstation when it appears. Every failure to open modules.dep is treated
    /// alike; a missing directory and a file in its place stand for it here, as root (the
    /// suite's user in CI) passes any permission bits.
    @Test func unreadableModuleListsLeaveItToTheDevice() throws {
        try withSystem { root, paths in
            try Data().write(to: URL(fileURLWithPath: paths.uhid))
            var hidden = paths
            hidden.kernelModules = root.appendingPathComponent("no-such-release").path
            #expect(DualSenseAvailability.playStationDriver(hidden) == .unknown)
            #expect(reason(hidden) == nil)
            try Data().write(to: root.appendingPathComponent("a-file"))
            hidden.kernelModules = root.appendingPathComponent("a-file").path
            #expect(DualSenseAvailability.playStationDriver(hidden) == .unknown)
            #expect(reason(hidden) == nil)
        }
    }

    @Test func thisMachinesKernelReleaseIsRead() {
        #expect(!DualSenseAvailability.kernelRelease.isEmpty)
        #expect(DualSenseAvailability.Paths().kernelModules == "/lib/modules/\(DualSenseAvailability.kernelRelease)")
    }
}
