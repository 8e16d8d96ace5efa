/// Where the opentrack datagrams go: an IPv4 address and a UDP port, written `ADDRESS:PORT`.
public struct OpenTrackAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address's four bytes, most significant first.
    public var octets: [UInt8]
    public var port: UInt16

    /// `127.0.0.1:4242`, where opentrack's "UDP over network" input listens unless told otherwise.
    public static let `default` = OpenTrackAddress(octets: [127, 0, 0, 1], port: 4242)

    public init(octets: [UInt8], port: UInt16) {
        self.octets = Array((octets + [0, 0, 0, 0]).prefix(4))
        self.port = port
    }

    /// Parses `A.B.C.D:PORT` (dotted decimal, a port 1...65535); the error says what is wrong.
    public static func parse(_ text: String) -> Result<OpenTrackAddress, OpenTrackAddressError> {
        guard let colon = text.lastIndex(of: ":") else {
            return .failure(OpenTrackAddressError("\"\(text)\" is not ADDRESS:PORT"))
        }
        let host = text[..<colon]
        let portText = text[text.index(after: colon)...]
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        let octets = parts.compactMap { part -> UInt8? in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII) else { return nil }
            return UInt8(part)
        }
        guard parts.count == 4, octets.count == 4 else {
            return .failure(OpenTrackAddressError("\"\(host)\" is not an IPv4 address in dotted decimal (for example 127.0.0.1)"))
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = UInt16(portText), port != 0 else {
            return .failure(OpenTrackAddressError("\"\(portText)\" is not a port: 1 to 65535 (opentrack's is 4242)"))
        }
        return .success(OpenTrackAddress(octets: octets, port: port))
    }

    /// Whether the datagrams stay on this machine (127.0.0.0/8).
    public var isLoopback: Bool { octets[0] == 127 }

    public var description: String {
        octets.map(String.init).joined(separator: ".") + ":\(port)"
    }
}

/// Why an opentrack address does not parse.
public struct OpenTrackAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// `[opentrack]`: the controller's orientation sent to opentrack as a head tracker, off unless
/// the table is there.
public struct OpenTrackConfiguration: Hashable, Sendable {
    /// Where the datagrams go (`send-to`, default `127.0.0.1:4242`).
    public var sendTo: OpenTrackAddress
    /// The controller followed (`controller`, upper case); nil follows the first that connects.
    public var controller: String?

    public init(sendTo: OpenTrackAddress = .default, controller: String? = nil) {
        self.sendTo = sendTo
        self.controller = controller
    }
}

extension ConfigDecoder {
    /// The keys of `[opentrack]`.
    static let openTrackKeys = ["send-to", "controller"]
}

extension ConfigReader {
    /// `[opentrack]`: present, the output is on; `send-to` is `"ADDRESS:PORT"` (IPv4),
    /// `controller` a Bluetooth address.
    mutating func openTrack(_ table: TOMLTable) -> OpenTrackConfiguration? {
        let path = KeyPath(["opentrack"])
        rejectUnknownKeys(in: table, at: path, allowed: ConfigDecoder.openTrackKeys)
        var result = OpenTrackConfiguration()
        var valid = true
        if let entry = table["send-to"] {
            let expected = "an address and port like \"\(OpenTrackAddress.default)\""
            if let text = string(entry.value, at: path.appending("send-to"), expected: expected) {
                switch OpenTrackAddress.parse(text) {
                case .success(let address):
                    result.sendTo = address
                case .failure(let problem):
                    error(at: entry.value.position, "\(path.appending("send-to")): \(problem); expected \(expected)")
                    valid = false
                }
            } else {
                valid = false
            }
        }
        if let entry = table["controller"] {
            let expected = "a Bluetooth address like \"C0:DD:EE:00:00:01\""
            if let text = string(entry.value, at: path.appending("controller"), expected: expected) {
                if ConfigReader.isBluetoothAddress(text.uppercased()) {
                    result.controller = text.uppercased()
                } else {
                    error(at: entry.value.position, "\(path.appending("controller")): '\(text)' is not a Bluetooth address; expected six hex byte pairs like \"C0:DD:EE:00:00:01\"")
                    valid = false
                }
            } else {
                valid = false
            }
        }
        return valid ? result : nil
    }
}
