#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import VirtualDevice

@Suite("Error messages")
struct ErrorMessageTests {
    @Test(arguments: [ENOENT, ENODEV, ENXIO])
    func missingUinputSaysToLoadTheModule(code: Int32) {
        let error = VirtualDeviceError.fromOpen(errno: code, device: "Daydream Controller Gamepad")
        #expect(error == .uinputMissing)
        #expect(error.description == "/dev/uinput is missing: load the module with 'sudo modprobe uinput' "
            + "(and install the udev/ and modules-load.d files, see README)")
    }

    @Test(arguments: [EACCES, EPERM])
    func permissionNamesTheRuleAndTheGroup(code: Int32) {
        let error = VirtualDeviceError.fromOpen(errno: code, device: "Daydream Controller Gamepad")
        #expect(error == .permissionDenied)
        #expect(error.description.hasPrefix("no permission to open /dev/uinput: "))
        #expect(error.description.contains("udev/60-daydream-bridge-uinput.rules"))
        #expect(error.description.contains("group 'input'"))
        #expect(!error.description.contains("\n"))
    }

    @Test func otherErrorsKeepTheErrno() {
        let error = VirtualDeviceError.fromOpen(errno: EINVAL, device: "Daydream Controller Mouse")
        #expect(error == .creationFailed(device: "Daydream Controller Mouse", errno: EINVAL))
        #expect(error.description == "the kernel refused to create the virtual device \"Daydream Controller Mouse\": "
            + "Invalid argument (errno \(EINVAL))")
    }

    @Test func ruleFileNameMatchesTheShippedFile() throws {
        let rules = URLs.repositoryRoot + "/udev/" + VirtualDeviceError.uinputRuleFile
        #expect(access(rules, R_OK) == 0, "\(rules) exists")
    }
}

/// Paths in the source tree, found from this file's location.
enum URLs {
    static let repositoryRoot: String = {
        var path = #filePath
        for _ in 0..<3 {
            guard let slash = path.lastIndex(of: "/") else { break }
            path = String(path[..<slash])
        }
        return path
    }()
}
