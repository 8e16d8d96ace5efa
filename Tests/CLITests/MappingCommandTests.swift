import Foundation
import TestSupport
import Testing

/// `daydream-bridge mapping`, run as the built binary.
@Suite("mapping command", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct MappingCommandTests {
    static let config = CheckConfigCommandTests.config

    private func mapping(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try BuiltBinary.run(["mapping"] + arguments)
        return (result.status, result.stdout, result.stderr)
    }

    @Test func defaultConfigsLineForSDLAndGodot() throws {
        let result = try mapping(["--config", Self.config.appendingPathComponent("default.toml").path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == "060000007dda00000100000001000000,Daydream Controller Gamepad,a:b0,b:b1,guide:b5,"
            + "leftshoulder:b2,leftx:a0,lefty:a1,rightshoulder:b3,start:b4,platform:Linux,\n")
    }

    @Test func identityOptionGivesTheXboxLine() throws {
        let result = try mapping(["--config", Self.config.appendingPathComponent("default.toml").path, "--identity", "xbox360"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("030000005e0400008e02000014010000,Microsoft X-Box 360 pad,a:b0,b:b1,back:b6,"))
    }

    @Test func configWithoutAGamepadExitsOne() throws {
        let file = Self.config.appendingPathComponent("media.toml").path
        let result = try mapping(["--config", file])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Error: \(file) has no gamepad: no profile emits gamepad codes\n")
    }

    @Test func unknownIdentityIsAUsageError() throws {
        let result = try mapping(["--identity", "ps4"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: unknown identity 'ps4'; identities: default, xbox360, dualsense\n"))
    }
}
