import DaydreamProtocol

/// `daydream-bridge decode [--controller FAMILY] HEX...`: packets as JSON lines.
enum DecodeCommand: Subcommand {
    enum Option {
        static let controller = CommandOption.value(
            "--controller", named: "FAMILY",
            help: "Whose packets: daydream (the default), gear-vr or oculus-go (experimental).")
    }

    static let declaration = CommandDeclaration(
        name: "decode", operands: "HEX...",
        abstract: "Decode packets given in hex, one JSON line each.",
        options: [Option.controller],
        discussion: """
        Each HEX is one notification of the input characteristic: a Daydream's 20
        bytes (40 hex digits), or with --controller gear-vr a Gear VR's 60, with
        --controller oculus-go an Oculus Go's 20 (spaces, colons and dashes between
        bytes are allowed when quoted). Each packet prints as one JSON object: "raw"
        holds the fields exactly as packed (a Gear VR's three samples with their
        times in microseconds, magnetometer, touch, buttons, temperature, battery);
        beside it the scaled values (acceleration in m/s^2, rotation rate in rad/s,
        touch 0...1 or null, buttons by name; a Daydream's orientation).

        A packet that is not valid hex, not the family's length, or a command echo
        (a Gear VR's 2-byte notification) is reported on standard error with its
        argument; the others still print, and the exit code is 1.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        let family: ControllerFamily
        if let name = options.value(Option.controller) {
            guard let named = ControllerFamily.named(name) else {
                let known = ControllerFamily.all.map(\.name).joined(separator: ", ")
                throw UsageError("--controller: unknown controller '\(name)' (known: \(known))")
            }
            family = named
        } else {
            family = .daydream
        }
        let packets = options.positionals
        guard !packets.isEmpty else { throw UsageError("decode needs at least one packet") }
        var failed = false
        for (index, argument) in packets.enumerated() {
            let position = "argument \(index + 1) '\(argument)'"
            guard let bytes = Hex.decode(argument) else {
                printError("Error: \(position) is not hex (two digits per byte)")
                failed = true
                continue
            }
            do {
                let packet = try bytes.withUnsafeBytes { raw throws(PacketDecodingError) in try family.decode(raw) }
                printOut(packet.jsonLine)
            } catch {
                printError("Error: \(position): \(error)")
                failed = true
            }
        }
        return failed ? ExitCode.failure : ExitCode.success
    }
}
