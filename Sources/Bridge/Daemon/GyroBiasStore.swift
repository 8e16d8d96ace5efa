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

    /// Every stored bias by upper-case address; lines that do not read are skipped.
    public func load() -> [String: Vector3] {
        guard let text = try? TextFile.read(path) else { return [:] }
        var result: [String: Vector3] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let x = Double(fields[1]), let y = Double(fields[2]), let z = Double(fields[3]) else { continue }
            result[fields[0].uppercased()] = Vector3(x: x, y: y, z: z)
        }
        return result
    }

    /// Stores `bias` for `address`, keeping the others; the error's text when it cannot.
    public func save(_ bias: Vector3, for address: String) -> String? {
        var all = load()
        all[address.uppercased()] = bias
        let text = all.keys.sorted().compactMap { key in all[key].map { "\(key) \($0.x) \($0.y) \($0.z)\n" } }.joined()
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            return "cannot make \(directory): \(String(cString: strerror(errno)))"
        }
        // Written beside and renamed over: a crash never leaves half a file.
        do {
            try FileReplacement.write(Array(text.utf8), to: path)
        } catch {
            return "cannot write \(path): \(error)"
        }
        return nil
    }
}
