import DaydreamProtocol
import EventVocabulary
import Mapping
import Timebase

/// A config that is not valid: every problem found, in file order.
public struct ConfigErrors: Error, Sendable, Equatable {
    /// The problems, at least one.
    public var diagnostics: [ConfigDiagnostic]

    /// Errors made of `diagnostics`.
    public init(_ diagnostics: [ConfigDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// Every problem as `FILE:LINE:COLUMN: error: MESSAGE`.
    public func formatted(file: String) -> [String] {
        diagnostics.map { $0.formatted(file: file) }
    }
}

/// Turns the config's TOML into a `MappingConfiguration`, finding every problem at once.
///
/// The file: `[bridge]` (`profile`, `next-profile`, `hold-time`, `tap-time`, `chord-window`), `[gamepad]`
/// (`identity`), `[dsu]` (`listen`), `[opentrack]` (`send-to`, `controller`), `[profile.NAME]` tables and `[controller."ADDRESS"]` tables
/// (`profile`); `config/default.toml` explains each key. Unknown keys are errors.
public enum ConfigDecoder {
    /// The top-level tables.
    static let rootKeys = ["bridge", "gamepad", "dsu", "opentrack", "profile", "controller"]
    /// The keys of `[bridge]`.
    static let bridgeKeys = ["profile", "next-profile", "hold-time", "tap-time", "chord-window"]
    /// The keys of `[gamepad]`.
    static let gamepadKeys = ["identity"]
    /// The keys of `[controller."ADDRESS"]`.
    static let controllerKeys = ["profile"]
    /// Old or guessed names of keys, to point at the right one.
    static let renamedKeys = [
        "long-press": "hold-time", "default-profile": "profile", "long-press-time": "hold-time",
        "chord-timeout": "chord-window", "chord-time": "chord-window", "tap-duration": "tap-time",
    ]

    /// Decodes config text (UTF-8 bytes, as read from the file).
    public static func decode(_ bytes: [UInt8]) throws(ConfigErrors) -> MappingConfiguration {
        try decodeAll(bytes).mapping
    }

    /// Decodes config text.
    public static func decode(_ text: String) throws(ConfigErrors) -> MappingConfiguration {
        try decode(Array(text.utf8))
    }

    /// Decodes a parsed document.
    public static func decode(_ document: TOMLDocument) throws(ConfigErrors) -> MappingConfiguration {
        try decodeAll(document).mapping
    }

    /// The mapping and the daemon's own settings (`[dsu]`, `[opentrack]`).
    public typealias DecodedConfig = (mapping: MappingConfiguration, dsu: DSUConfiguration?, openTrack: OpenTrackConfiguration?)

    /// Decodes config text into the mapping and the daemon's own settings (`[dsu]`, `[opentrack]`).
    public static func decodeAll(_ bytes: [UInt8]) throws(ConfigErrors) -> DecodedConfig {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: bytes)
        } catch {
            throw ConfigErrors([ConfigDiagnostic(at: error.position, "TOML syntax: \(error.message)")])
        }
        return try decodeAll(document)
    }

    /// Decodes a parsed document into the mapping and the daemon's own settings (`[dsu]`, `[opentrack]`).
    public static func decodeAll(_ document: TOMLDocument) throws(ConfigErrors) -> DecodedConfig {
        var reader = ConfigReader()
        let configuration = reader.configuration(document.root)
        guard reader.diagnostics.isEmpty, let configuration else {
            var diagnostics = reader.diagnostics.all
            if diagnostics.isEmpty {
                diagnostics = [ConfigDiagnostic(at: .unknown, "the config is not valid")]
            }
            throw ConfigErrors(diagnostics)
        }
        return (configuration, reader.dsu, reader.openTrack)
    }
}

extension ConfigReader {
    /// The whole configuration; nil when anything is wrong.
    mutating func configuration(_ root: TOMLTable) -> MappingConfiguration? {
        rejectUnknownRootKeys(root)
        let profileTable = root["profile"].flatMap { entry in
            table(entry.value, at: KeyPath(["profile"]), expected: "tables [profile.NAME]")
        }
        var scope = DecodingScope(profileNames: profileTable?.keys.filter { !$0.isEmpty } ?? [])
        var configuration = MappingConfiguration(profiles: [])

        if let entry = root["bridge"], let bridge = table(entry.value, at: KeyPath(["bridge"])) {
            self.bridge(bridge, into: &configuration, scope: &scope)
        }
        if let entry = root["gamepad"], let gamepad = table(entry.value, at: KeyPath(["gamepad"])) {
            rejectUnknownKeys(in: gamepad, at: KeyPath(["gamepad"]), allowed: ConfigDecoder.gamepadKeys)
            if let identity = gamepad["identity"] {
                let names = GamepadIdentity.allCases.map(\.rawValue)
                if let name = choice(identity.value, at: KeyPath(["gamepad", "identity"]), among: names, what: "gamepad identity"),
                   let value = GamepadIdentity(rawValue: name) {
                    configuration.gamepadIdentity = value
                    gamepadIdentity = value
                }
            }
        }
        if let entry = root["dsu"], let table = table(entry.value, at: KeyPath(["dsu"])) {
            dsu = self.dsu(table)
        }
        if let entry = root["opentrack"], let table = table(entry.value, at: KeyPath(["opentrack"])) {
            openTrack = self.openTrack(table)
        }
        if let profileTable {
            for entry in profileTable.entries {
                let path = KeyPath(["profile", entry.key])
                if entry.key.isEmpty {
                    error(at: entry.keyPosition, "\(path): a profile needs a name, like [profile.gamepad]")
                    continue
                }
                if let profile = profile(named: entry.key, entry.value, at: path, scope: scope) {
                    configuration.profiles.append(profile)
                }
            }
        }
        if let profileTable { checkApplicationsClaimedOnce(profileTable) }
        if scope.profileNames.isEmpty {
            let position = root["profile"]?.keyPosition ?? SourcePosition(line: 1, column: 1)
            error(at: position, "no profiles: the config needs at least one [profile.NAME] table")
        }
        if let entry = root["controller"], let controllers = table(entry.value, at: KeyPath(["controller"]), expected: "tables [controller.\"ADDRESS\"]") {
            configuration.controllerProfiles = self.controllers(controllers, scope: scope)
        }
        if diagnostics.isEmpty, let pad = gamepadIdentity.fixedPad, let identity = root["gamepad"]?.value.table?["identity"] {
            checkFixedPad(pad, configuration, at: identity.value.position)
        }
        return diagnostics.isEmpty ? configuration : nil
    }

    /// An application pattern in two profiles would make the switch depend on file order: an
    /// error at the second, naming both profiles. Patterns compare without regard to case.
    private mutating func checkApplicationsClaimedOnce(_ profiles: TOMLTable) {
        var claimed: [String: String] = [:]
        for profile in profiles.entries {
            guard let list = profile.value.table?["applications"]?.value.array else { continue }
            for item in list {
                guard let text = item.string else { continue }
                let key = text.lowercased()
                if let owner = claimed[key], owner != profile.key {
                    error(at: item.position, "profile.\(profile.key).applications: \"\(text)\" is also in profile.\(owner).applications; "
                        + "an application can follow one profile only")
                } else {
                    claimed[key] = profile.key
                }
            }
        }
    }

    /// The device is created with exactly the fixed pad's codes: whatever the profiles emit on
    /// the gamepad must be among them. Each value is checked where it is read; this catches a code
    /// that slips past those checks, so `check-config` never passes what device creation refuses.
    private mutating func checkFixedPad(_ pad: FixedPad, _ configuration: MappingConfiguration, at position: SourcePosition) {
        let foreign = pad.foreignCodes(in: configuration.capabilities[.gamepad] ?? DeviceCapabilities())
        guard !foreign.isEmpty else { return }
        error(at: position, "gamepad.identity: \(pad.description) has no \(foreign.joined(separator: ", ")), which the profiles "
            + "write on the gamepad; its codes: \(pad.buttonNames.joined(separator: ", ")), "
            + "\(pad.capabilities.absoluteAxes.map { EventCodeNames.name(type: EventType.abs, code: $0.code) }.joined(separator: ", "))")
    }

    private mutating func rejectUnknownRootKeys(_ root: TOMLTable) {
        for entry in root.entries where !ConfigDecoder.rootKeys.contains(entry.key) {
            if ConfigDecoder.bridgeKeys.contains(entry.key) {
                error(at: entry.keyPosition, "unknown key '\(entry.key)' at the top level; it belongs in [bridge]")
            } else if ConfigDecoder.profileKeysWithoutTables.contains(entry.key) {
                error(at: entry.keyPosition, "unknown key '\(entry.key)' at the top level; it belongs in a [profile.NAME] table")
            } else {
                rejectUnknownKeys(in: TOMLTable(entries: [entry]), at: KeyPath(), allowed: ConfigDecoder.rootKeys)
            }
        }
    }

    private mutating func bridge(_ bridge: TOMLTable, into configuration: inout MappingConfiguration, scope: inout DecodingScope) {
        let path = KeyPath(["bridge"])
        for entry in bridge.entries where !ConfigDecoder.bridgeKeys.contains(entry.key) {
            if let renamed = ConfigDecoder.renamedKeys[entry.key] {
                error(at: entry.keyPosition, "unknown key '\(entry.key)' in [bridge]; did you mean '\(renamed)'?")
            } else {
                rejectUnknownKeys(in: TOMLTable(entries: [entry]), at: path, allowed: ConfigDecoder.bridgeKeys)
            }
        }
        if let entry = bridge["profile"], let name = string(entry.value, at: path.appending("profile"), expected: "a profile name") {
            if scope.profileNames.contains(name) {
                configuration.defaultProfile = name
            } else {
                unknownProfile(name, at: entry.value.position, path: path.appending("profile"), scope: scope)
            }
        }
        if let entry = bridge["next-profile"],
           let text = string(entry.value, at: path.appending("next-profile"), expected: "a chord like \"home+app\"") {
            if let buttons = chordButtons(text, at: entry.value.position, path: path.appending("next-profile")) {
                configuration.nextProfileChord = buttons
                scope.nextProfileChord = buttons
            }
        }
        if let entry = bridge["hold-time"],
           let span = duration(entry.value, at: path.appending("hold-time"), in: Self.holdTimeRange) {
            configuration.holdTime = span
        }
        if let entry = bridge["tap-time"],
           let span = duration(entry.value, at: path.appending("tap-time"), in: Self.tapTimeRange) {
            configuration.tapTime = span
        }
        if let entry = bridge["chord-window"],
           let span = duration(entry.value, at: path.appending("chord-window"), in: Self.chordWindowRange) {
            configuration.chordWindow = span
        }
    }

    private mutating func controllers(_ table: TOMLTable, scope: DecodingScope) -> [String: String] {
        var result: [String: String] = [:]
        var positions: [String: SourcePosition] = [:]
        for entry in table.entries {
            let path = KeyPath(["controller", entry.key])
            guard let controller = self.table(entry.value, at: path, expected: "a table like { profile = \"NAME\" }") else { continue }
            rejectUnknownKeys(in: controller, at: path, allowed: ConfigDecoder.controllerKeys)
            let address = entry.key.uppercased()
            if !Self.isBluetoothAddress(address) {
                error(at: entry.keyPosition, "\(path): '\(entry.key)' is not a Bluetooth address; expected six hex byte pairs "
                    + "like \"C0:DD:EE:00:00:01\"")
            } else if let earlier = positions[address] {
                error(at: entry.keyPosition, "\(path): the same controller as [controller.\"\(address)\"] at line \(earlier.line)")
            }
            positions[address] = positions[address] ?? entry.keyPosition
            guard let profileEntry = controller["profile"] else {
                error(at: entry.value.position, "\(path): missing key 'profile'; expected profile = \"NAME\"")
                continue
            }
            guard let name = string(profileEntry.value, at: path.appending("profile"), expected: "a profile name") else { continue }
            guard scope.profileNames.contains(name) else {
                unknownProfile(name, at: profileEntry.value.position, path: path.appending("profile"), scope: scope)
                continue
            }
            result[address] = name
        }
        return result
    }

    /// True for `AA:BB:CC:DD:EE:FF` (upper-case hex).
    static func isBluetoothAddress(_ text: String) -> Bool {
        Hex.bluetoothAddress(text) != nil && !text.contains(where: \.isLowercase)
    }
}

extension ConfigDecoder {
    /// Profile keys that users may write at the top level by mistake.
    static let profileKeysWithoutTables = ControllerButton.allCases.map(\.name) + ["touchpad", "air-mouse", "tilt", "pointer", "chords"]
}
