import DSU

/// `[dsu]`: the DSU ("cemuhook") server for emulators, off unless the table is there.
public struct DSUConfiguration: Hashable, Sendable {
    /// Where it listens (`listen`, default `127.0.0.1:26760`).
    public var listen: DSUListenAddress

    public init(listen: DSUListenAddress = .default) {
        self.listen = listen
    }
}

extension ConfigDecoder {
    /// The keys of `[dsu]`.
    static let dsuKeys = ["listen"]
}

extension ConfigReader {
    /// `[dsu]`: present, the server is on; `listen` is `"ADDRESS:PORT"` (IPv4).
    mutating func dsu(_ table: TOMLTable) -> DSUConfiguration? {
        let path = KeyPath(["dsu"])
        rejectUnknownKeys(in: table, at: path, allowed: ConfigDecoder.dsuKeys)
        guard let entry = table["listen"] else { return DSUConfiguration() }
        let expected = "an address and port like \"\(DSUListenAddress.default)\""
        guard let text = string(entry.value, at: path.appending("listen"), expected: expected) else { return nil }
        switch DSUListenAddress.parse(text) {
        case .success(let address):
            return DSUConfiguration(listen: address)
        case .failure(let problem):
            error(at: entry.value.position, "\(path.appending("listen")): \(problem); expected \(expected)")
            return nil
        }
    }
}
