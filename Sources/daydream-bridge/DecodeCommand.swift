import DaydreamProtocol

/// `daydream-bridge decode HEX...`: packets as JSON lines.
enum DecodeCommand: Subcommand {
    static let declaration = CommandDeclaration(
        name: "decode", operands: "HEX...",
        abstract: "Decode 20-byte packets given in hex, one JSON line each.",
        discussion: """
        Each HEX is one notification of the input characteristic, 40 hex digits
        (spaces, colons and dashes between bytes are allowed when quoted).
        Each packet prints as one JSON object: "raw" holds the counts exactly as
        packed; beside it the scaled values (quaternion, acceleration in m/s^2,
        rotation rate in rad/s, touch 0...1 or null, buttons by name).

        A packet that is not valid hex or not 20 bytes is reported on standard
        error with its argument; the others still print, and the exit code is 1.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        guard !arguments.isEmpty else { throw UsageError("decode needs at least one packet") }
        var failed = false
        for (index, argument) in arguments.enumerated() {
            let position = "argument \(index + 1) '\(argument)'"
            guard let bytes = Hex.decode(argument) else {
                printError("Error: \(position) is not hex (two digits per byte)")
                failed = true
                continue
            }
            do {
                printOut(try DaydreamPacket(bytes).jsonLine)
            } catch {
                printError("Error: \(position): \(error)")
                failed = true
            }
        }
        return failed ? ExitCode.failure : ExitCode.success
    }
}
