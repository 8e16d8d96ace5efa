import BlueZ

/// Pairing did not complete: the address, what to do, and BlueZ's error if any.
public struct PairingError: Error, CustomStringConvertible, Sendable {
    /// The controller's address (empty when several were in range).
    public let address: String
    /// What went wrong and what to do.
    public let reason: String
    /// BlueZ's error, when it gave one.
    public let error: DBusError?
    /// The unpaired controllers in range when `pairNextController` without an
    /// address found more than one (and paired none): the user picks one.
    public let candidates: [DeviceInfo]

    /// An error for `address`.
    public init(address: String, reason: String, error: DBusError? = nil, candidates: [DeviceInfo] = []) {
        self.address = address
        self.reason = reason
        self.error = error
        self.candidates = candidates
    }

    /// Whether the cure is `forget` and `pair` again.
    public var isStaleBond: Bool { error?.isAuthenticationFailure ?? false }

    public var description: String { reason }
}
