import Bridge
import BridgeConfig
import EventVocabulary
import Mapping
import VirtualDevice

/// `daydream-bridge mapping`: the gamepad's SDL_GameControllerDB line.
enum MappingCommand: Subcommand {
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let config = CommandOption.value("--config", named: "FILE", help: "Use this config instead of the lookup.")
        static let identity = CommandOption.value("--identity", named: "default|xbox360|dualsense", help: "The line for this identity instead of the config's.")
    }

    static let declaration = CommandDeclaration(
        name: "mapping",
        abstract: "Print the gamepad's SDL game controller mapping line (SDL_GAMECONTROLLERCONFIG, Godot).",
        options: [Option.config, Option.identity],
        discussion: """
        Prints the line SDL_GameControllerDB's format gives the virtual gamepad
        of the config (the same lookup as 'run'): its GUID, its name, the
        bindings SDL's automatic mapping gives it, 'platform:Linux,'. The
        buttons a line names depend on the codes the profiles use, so print it
        again after changing them. For a game:

          SDL_GAMECONTROLLERCONFIG="$(daydream-bridge mapping)" game

        SDL 2 maps the default gamepad by itself; the line is for engines that
        do not: Godot 3 (and Godot 4) read SDL_GAMECONTROLLERCONFIG or a
        mapping added with Input.add_joy_mapping(). The GUID carries no name
        checksum, as SDL's database and Godot's own GUIDs do; SDL 2.26 and
        later match it too. identity = "xbox360" is in every such database
        already; choose it for games that only know Xbox pads. With identity =
        "dualsense" the line is for the uinput pad it falls back to: SDL reads
        the DualSense itself.
        """,
        notes: """
        Exit status: 0, 1 when the config has no gamepad, 2 when it has errors.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.isEmpty else { throw UsageError("mapping takes no arguments") }
        guard let loaded = loadCommandConfig(path: options.value(Option.config)) else { return ExitCode.configError }
        var identity = loaded.configuration.gamepadIdentity
        if let name = options.value(Option.identity) {
            guard let chosen = GamepadIdentity(rawValue: name) else {
                let names = GamepadIdentity.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("unknown identity '\(name)'; identities: \(names)")
            }
            identity = chosen
        }
        guard let codes = loaded.configuration.capabilities[.gamepad] else {
            printError("Error: \(loaded.source) has no gamepad: no profile emits gamepad codes")
            return ExitCode.failure
        }
        let description = try DeviceLayout.description(for: .gamepad, capabilities: codes, gamepadIdentity: identity)
        printOut(GameControllerMapping.line(for: description))
        return ExitCode.success
    }
}
