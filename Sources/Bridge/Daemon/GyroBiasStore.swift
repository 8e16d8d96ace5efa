#if canImport(Glibc)
import Glibc
#endif
import DaydreamProtocol
import Descriptors

/// Each controller's measured gyro bias, kept in the state directory so it applies after a
/// reconnect and a restart: one line per controller, `AA:BB:CC:DD:EE:FF X Y Z` (rad/s), in
/// `gyro-bias` under `$STATE_DIRECTORY` (the system unit's), else
/// `$XDG_STATE_HOME/daydream-bridge`, else `~/.local/state/daydream-bridge`.
public struct GyroBiasStore: Sendable {
    /// The file.
    public let path: String

    /// The store in `directory`.
    public init(directory: String) {
        path = directory + "/gyro-bias"
    }

    /// The store where this environment keeps state; nil without any of the variables.
    public static func forDaemon(environment: [String: String]) -> GyroBiasStore? {
        if let state = environment["STATE_DIRECTORY"], !state.isEmpty { return GyroBiasStore(directory: state) }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return GyroBiasStore(directory: xdg + "/daydream-bridge") }
        if let home = environment["HOME"], !home.isEmpty { return GyroBiasStore(directory: home + "/.local/state/daydream-bridge") }
        return nil
    }

    /// The variables `forDaemon` reads, from this process.
    public static func processEnvironment() -> [String: String] {
        ProcessEnvironment.values(["STATE_DIRECTORY", "XDG_STATE_HOME", "HOME"])
    }

    /// The largest bias on any axis, in rad/s: the 13-bit gyro's full scale (4096 counts, about
    /// 2048 deg/s). A measured bias never comes near it; a stored one beyond it is not a bias.
    public static let largestBias = 4096 * Scale.gyro

    /// What the file held: the biases that read, and a sentence for each thing refused.
    public struct Contents: Sendable, Equatable {
        /// Every stored bias by upper-case address.
        public var biases: [String: Vector3] = [:]
        /// Why the file or a line of it was not taken; empty when there is no file yet.
        public var problems: [String] = []
    }

    /// Every stored bias by upper-case address; lines that do not read are skipped.
    public func load() -> [String: Vector3] {
        read().biases
    }

    /// The file's biases and what was wrong with it. Only a regular file of at most 64 KiB is
    /// read; a line is taken when its three values are finite and within `largestBias`.
    public func read() -> Contents {
        var contents = Contents()
        let text: String
        do {
            text = try TextFile.read(path, sizeLimit: 64 * 1024)
        } catch {
            if error.code != ENOENT { contents.problems.append("gyro biases not loaded: \(error)") }
            return contents
        }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            let fields = line.split(separator: " ")
            let values = fields.dropFirst().compactMap { Double($0) }
            guard fields.count == 4, values.count == 3 else {
                contents.problems.append("\(path):\(index + 1): not ADDRESS X Y Z; skipped")
                continue
            }
            guard values.allSatisfy({ $0.isFinite && abs($0) <= Self.largestBias }) else {
                contents.problems.append("\(path):\(index + 1): a bias must be a finite number of rad/s "
                    + "within ±\(Self.largestBias); skipped")
                continue
            }
            contents.biases[fields[0].uppercased()] = Vector3(x: values[0], y: values[1], z: values[2])
        }
        return contents
    }

    /// Stores `bias` for `address`, keeping the others; the error's text when it cannot.
    public func save(_ bias: Vector3, for address: String) -> String? {
        var all = load()
        all[address.uppercased()] = bias
        let text = all.keys.sorted().compactMap { key in all[key].map { "\(key) \($0.x) \($0.y) \($0.z)\n" } }.joined()
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        if let problem = Self.makeDirectory(directory) { return problem }
        // Written beside and renamed over: a crash never leaves half a file.
        do {
            try FileReplacement.write(Array(text.utf8), to: path)
        } catch {
            return "cannot write \(path): \(error)"
        }
        return nil
    }

    /// Makes `directory` and any of its parents that are missing (`~/.local/state` need not
    /// exist yet): the parents 0700, as the XDG base directory spec asks, the store's own 0755.
    /// A problem in words, or nil.
    static func makeDirectory(_ directory: String) -> String? {
        var made = directory.hasPrefix("/") ? "" : "."
        let parts = directory.split(separator: "/")
        for (index, part) in parts.enumerated() {
            made += "/" + part
            let mode: mode_t = index == parts.count - 1 ? 0o755 : 0o700
            if mkdir(made, mode) != 0 && errno != EEXIST {
                return "cannot make \(made): \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }
}
