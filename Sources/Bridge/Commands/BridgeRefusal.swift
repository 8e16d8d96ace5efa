/// Why the bridge did not carry out a command. Every door shows the same `message`; the D-Bus
/// API also names the error (`org.daydream_bridge.Error.` + `name`).
public enum BridgeRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The configuration has no profile `name`; `profiles` are the ones it has.
    case unknownProfile(_ name: String, profiles: [String])
    /// No controller has that address; `controllers` are the ones the bridge knows.
    case noController(_ address: String, controllers: [String])
    /// Measuring needs a connected controller, and none is.
    case noneConnected
    /// The controller at `address` is known but not connected, so it cannot be measured.
    case notConnected(_ address: String)
    /// Lending needs a connected controller: the one at `address` is not (nil: none is).
    case notConnectedToLend(_ address: String?)
    /// The controller at `address` is lent already.
    case alreadyLent(_ address: String)
    /// The controller at `address` comes from a recording, which has nothing to lend.
    case cannotLend(_ address: String)
    /// The new configuration has these errors, so the running one stays.
    case invalidConfig(_ reasons: [String])
    /// The bridge is shutting down.
    case stopping
    /// The bridge reads no Bluetooth (it plays a recording), so it pairs and forgets nothing.
    case noBluetooth
    /// A pairing is under way already: one at a time.
    case alreadyPairing
    /// BlueZ does not know a device at `address`.
    case unknownDevice(_ address: String)
    /// `text` is not a Bluetooth address.
    case badAddress(_ text: String)

    /// The error's short name, as the D-Bus API sends it.
    public var name: String { nameAndMessage.name }

    /// What went wrong and what would do, in one line (a config's errors follow, one a line).
    public var message: String { nameAndMessage.message }

    private var nameAndMessage: (name: String, message: String) {
        switch self {
        case .unknownProfile(let name, let profiles):
            ("UnknownProfile", "no profile '\(Self.excerpt(name))'; profiles: \(Self.list(profiles))")
        case .noController(let address, let controllers):
            ("NoController", "no controller \(Self.excerpt(address)); controllers: \(Self.list(controllers))")
        case .noneConnected:
            ("NotConnected", "no controller is connected to measure; connect one, hold it still and calibrate again")
        case .notConnected(let address):
            ("NotConnected", "controller \(address) is not connected; connect it, hold it still and calibrate again")
        case .notConnectedToLend(let address?):
            ("NotConnected", "controller \(address) is not connected, so there is nothing to lend; connect it and lend it again")
        case .notConnectedToLend(nil):
            ("NotConnected", "no controller is connected to lend; connect one and lend it again")
        case .alreadyLent(let address):
            ("AlreadyLent", "controller \(address) is lent already; 'daydream-bridge reclaim' takes it back")
        case .cannotLend(let address):
            ("CannotLend", "controller \(address) plays from a recording, which has no connection to lend")
        case .invalidConfig(let reasons):
            ("InvalidConfig", (["the config has errors, so the running one stays:"] + reasons).joined(separator: "\n"))
        case .stopping:
            ("Stopping", "the bridge is stopping")
        case .noBluetooth:
            ("NoBluetooth", "this bridge reads no Bluetooth (it plays a recording): pair with the bridge that runs on BlueZ")
        case .alreadyPairing:
            ("AlreadyPairing", "a pairing is under way already; wait for it to end")
        case .unknownDevice(let address):
            ("UnknownDevice", "BlueZ does not know \(Self.excerpt(address)); the controllers list shows the known ones")
        case .badAddress(let text):
            ("BadAddress", "'\(Self.excerpt(text))' is not a Bluetooth address (AA:BB:CC:DD:EE:FF)")
        }
    }

    public var description: String { message }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.joined(separator: ", ")
    }

    /// `text` as quoted in a message: at most its first 64 bytes, then "..." when cut.
    static func excerpt(_ text: String) -> String {
        let start = prefix(of: text, bytes: 64)
        return start.utf8.count < text.utf8.count ? start + "..." : start
    }

    /// The longest start of `text` of at most `bytes` UTF-8 bytes that ends between scalars.
    static func prefix(of text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var kept = 0
        var end = text.unicodeScalars.startIndex
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            guard kept + width <= bytes else { break }
            kept += width
            end = text.unicodeScalars.index(after: end)
        }
        return String(text.unicodeScalars[..<end])
    }
}
