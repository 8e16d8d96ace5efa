/// One request on the control socket: a line of words, answered by `ok` or `error: ...` and
/// optional detail lines, after which the daemon closes the connection.
///
/// ```
/// profile NAME [ADDRESS]     switch every controller (or one) to NAME, releasing everything first
/// next-profile [ADDRESS]     switch to the next profile in config order (like SIGUSR1)
/// status                     one line per controller: ADDRESS: PROFILE, connected|disconnected|lent
/// controllers                one line per controller the bridge has seen, its whole record
///                            (`ControllerLine`: address, link (or lent), battery, firmware, profile, name)
/// dsu                        the DSU server's address, drops and clients, one line each; or DSU off
/// focus [ID...]              the focused application's ids (app_id, or WM_CLASS instance and class);
///                            none: nothing has the focus. Profiles follow it (`applications`)
/// profiles                   the running configuration's profiles, one a line, in its order
/// active-profile             the profile every controller was last switched to (new ones start in it)
/// watch                      stream each controller's packets (at most 60 a second), link, battery,
///                            profile and output events as they happen (see `ControllerWatch`)
/// lend [ADDRESS]             lend every connected controller (or one) to another program (Monado):
///                            everything released, the input notifications let go, the connection kept
/// reclaim [ADDRESS]          take every lent controller (or one) back
/// calibrate [ADDRESS]        measure the gyro's bias of every controller (or one) held still; the
///                            reply streams: `ok`, progress lines as the hold goes on, then each result
/// recenter [ADDRESS]         take the next motion packet's orientation as the tilt's zero
/// pair [ADDRESS]             find the one unpaired controller in range (or ADDRESS) and pair it; the
///                            reply streams: `ok`, `looking for ...`, `pairing ADDRESS`, then
///                            `paired and trusted ADDRESS` or `failed: WHY` (after `candidate ADDRESS
///                            NAME` lines when several are in range)
/// forget ADDRESS             remove the controller and its pairing from BlueZ; the reply streams:
///                            `ok`, then `forgot ADDRESS` or `failed: WHY` once BlueZ answered
/// ```
public enum ControlRequest: Hashable, Sendable {
    /// `profile NAME [ADDRESS]`.
    case profile(name: String, address: String?)
    /// `next-profile [ADDRESS]`.
    case nextProfile(address: String?)
    /// `status`.
    case status
    /// `controllers`.
    case controllers
    /// `dsu`.
    case dsu
    /// `focus [ID...]`.
    case focus(ids: [String])
    /// `active-profile`.
    case activeProfile
    /// `profiles`.
    case profiles
    /// `calibrate [ADDRESS]`: a streamed reply.
    case calibrate(address: String?)
    /// `watch`: a streamed reply that lasts until the client leaves.
    case watch
    /// `lend [ADDRESS]`.
    case lend(address: String?)
    /// `reclaim [ADDRESS]`.
    case reclaim(address: String?)
    /// `recenter [ADDRESS]`.
    case recenter(address: String?)
    /// `pair [ADDRESS]`: a streamed reply.
    case pair(address: String?)
    /// `forget ADDRESS`: a streamed reply.
    case forget(address: String)

    /// The longest request line accepted, in bytes.
    public static let maximumLength = 512

    /// Parses one line (without its newline); the error is the message to answer with.
    public static func parse(_ line: String) -> Result<ControlRequest, ControlError> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        switch (words.first, words.count) {
        case ("profile", 2): return .success(.profile(name: words[1], address: nil))
        case ("profile", 3): return .success(.profile(name: words[1], address: words[2]))
        case ("profile", _): return .failure(ControlError("usage: profile NAME [ADDRESS]"))
        case ("next-profile", 1): return .success(.nextProfile(address: nil))
        case ("next-profile", 2): return .success(.nextProfile(address: words[1]))
        case ("next-profile", _): return .failure(ControlError("usage: next-profile [ADDRESS]"))
        case ("status", 1): return .success(.status)
        case ("controllers", 1): return .success(.controllers)
        case ("dsu", 1): return .success(.dsu)
        case ("focus", _): return .success(.focus(ids: Array(words.dropFirst())))
        case ("active-profile", 1): return .success(.activeProfile)
        case ("profiles", 1): return .success(.profiles)
        case ("calibrate", 1): return .success(.calibrate(address: nil))
        case ("calibrate", 2): return .success(.calibrate(address: words[1]))
        case ("calibrate", _): return .failure(ControlError("usage: calibrate [ADDRESS]"))
        case ("lend", 1): return .success(.lend(address: nil))
        case ("lend", 2): return .success(.lend(address: words[1]))
        case ("lend", _): return .failure(ControlError("usage: lend [ADDRESS]"))
        case ("reclaim", 1): return .success(.reclaim(address: nil))
        case ("reclaim", 2): return .success(.reclaim(address: words[1]))
        case ("reclaim", _): return .failure(ControlError("usage: reclaim [ADDRESS]"))
        case ("watch", 1): return .success(.watch)
        case ("watch", _): return .failure(ControlError("usage: watch"))
        case ("recenter", 1): return .success(.recenter(address: nil))
        case ("recenter", 2): return .success(.recenter(address: words[1]))
        case ("recenter", _): return .failure(ControlError("usage: recenter [ADDRESS]"))
        case ("pair", 1): return .success(.pair(address: nil))
        case ("pair", 2): return .success(.pair(address: words[1]))
        case ("pair", _): return .failure(ControlError("usage: pair [ADDRESS]"))
        case ("forget", 2): return .success(.forget(address: words[1]))
        case ("forget", _): return .failure(ControlError("usage: forget ADDRESS"))
        case (nil, _): return .failure(ControlError("empty request; requests: \(requestNames)"))
        case (let word?, _): return .failure(ControlError("unknown request '\(word)'; requests: \(requestNames)"))
        }
    }

    private static let requestNames = "profile, next-profile, status, controllers, dsu, focus, active-profile, profiles, calibrate, lend, reclaim, watch, recenter, pair, forget"

    /// The line a client sends, without the newline.
    public var line: String {
        switch self {
        case .profile(let name, let address): (["profile", name] + (address.map { [$0] } ?? [])).joined(separator: " ")
        case .nextProfile(let address): (["next-profile"] + (address.map { [$0] } ?? [])).joined(separator: " ")
        case .status: "status"
        case .controllers: "controllers"
        case .dsu: "dsu"
        case .focus(let ids): (["focus"] + ids).joined(separator: " ")
        case .activeProfile: "active-profile"
        case .profiles: "profiles"
        case .calibrate(let address): (["calibrate"] + (address.map { [$0] } ?? [])).joined(separator: " ")
        case .watch: "watch"
        case .lend(let address): (["lend"] + (address.map { [$0] } ?? [])).joined(separator: " ")
        case .reclaim(let address): (["reclaim"] + (address.map { [$0] } ?? [])).joined(separator: " ")
        case .recenter(let address): (["recenter"] + (address.map { [$0] } ?? [])).joined(separator: " ")
        case .pair(let address): (["pair"] + (address.map { [$0] } ?? [])).joined(separator: " ")
        case .forget(let address): "forget \(address)"
        }
    }

    /// Whether the reply streams (lines as they come, until the daemon closes) rather than
    /// arriving whole.
    public var streamsReply: Bool {
        switch self {
        case .calibrate, .watch, .pair, .forget: true
        default: false
        }
    }
}

/// A request the daemon refused, with the reason sent back as `error: MESSAGE`.
public struct ControlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason.
    public var message: String

    /// An error with its reason.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The daemon's answer: `ok` or `error: MESSAGE`, then detail lines.
public struct ControlReply: Hashable, Sendable {
    /// Whether the request was carried out.
    public var succeeded: Bool
    /// The error message, or nothing.
    public var message: String
    /// Detail lines (the status, or what was switched).
    public var details: [String]

    /// A success with details.
    public static func ok(_ details: [String] = []) -> ControlReply {
        ControlReply(succeeded: true, message: "", details: details)
    }

    /// A failure.
    public static func error(_ message: String) -> ControlReply {
        ControlReply(succeeded: false, message: message, details: [])
    }

    /// The lines sent, without their newlines.
    public var lines: [String] {
        [succeeded ? "ok" : "error: \(message)"] + details
    }

    /// The text sent, each line ending in a newline.
    public var text: String {
        lines.map { $0 + "\n" }.joined()
    }

    /// Parses a reply's text; nil when it does not start with `ok` or `error: `.
    public init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first else { return nil }
        if first == "ok" {
            self.init(succeeded: true, message: "", details: Array(lines.dropFirst()))
        } else if first.hasPrefix("error: ") {
            self.init(succeeded: false, message: String(first.dropFirst(7)), details: Array(lines.dropFirst()))
        } else {
            return nil
        }
    }

    init(succeeded: Bool, message: String, details: [String]) {
        self.succeeded = succeeded
        self.message = message
        self.details = details
    }
}
