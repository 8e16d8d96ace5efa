import BlueZ
import DBus

/// Pairing did not complete: the address, why, and BlueZ's error if any.
public struct PairingError: Error, CustomStringConvertible, Sendable {
    /// Why pairing did not complete.
    public enum Cause: Equatable, Sendable {
        /// BlueZ has no device at the address (none seen in a scan).
        case unknownDevice
        /// The controller paired, but went away before it could be handed over.
        case wentAway
        /// The device does not call itself a Daydream controller (its name, if any).
        case notADaydreamController(name: String?)
        /// A pairing of this address is under way already.
        case alreadyBeingPaired
        /// BlueZ refused the pairing agent (`error` says why).
        case agentNotRegistered
        /// Several unpaired controllers are in range (`candidates`): none was paired.
        case severalInRange
        /// A problem the manager also reported (stale bond, a refused look-alike, BlueZ's error).
        case problem(DaydreamControllerManager.Problem)
    }

    /// The controller's address (empty when several were in range).
    public let address: String
    /// Why pairing did not complete.
    public let cause: Cause
    /// BlueZ's error, when it gave one.
    public let error: DBusError?
    /// The unpaired controllers in range when `pairNextController` without an
    /// address found more than one (and paired none): the user picks one.
    public let candidates: [DeviceInfo]

    /// An error for `address`.
    public init(address: String, cause: Cause, error: DBusError? = nil, candidates: [DeviceInfo] = []) {
        self.address = address
        self.cause = cause
        self.error = error
        self.candidates = candidates
    }

    /// Whether the cure is to remove the controller from BlueZ and pair it again.
    public var isStaleBond: Bool { error?.isAuthenticationFailure ?? false }

    /// What went wrong, in the library's words.
    public var description: String {
        switch cause {
        case .unknownDevice:
            "BlueZ does not know this device (it has not been seen in a scan)"
        case .wentAway:
            "the controller went away"
        case .notADaydreamController(let name):
            "\(name ?? "this device") is not a Daydream controller"
        case .alreadyBeingPaired:
            "\(address) is being paired already"
        case .agentNotRegistered:
            "cannot register the pairing agent: \(error.map { "\($0)" } ?? "BlueZ refused it")"
        case .severalInRange:
            "\(candidates.count) unpaired Daydream controllers are in range "
                + "(\(candidates.map(\.address).joined(separator: ", "))): name the one to pair"
        case .problem(let problem):
            problem.description
        }
    }
}
