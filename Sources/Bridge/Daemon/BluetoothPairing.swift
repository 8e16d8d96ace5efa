/// What carries out `pair` and `forget` for the daemon: `BluetoothControllerSource`, over BlueZ.
/// A bridge playing a recording has none, and refuses both.
@MainActor
public protocol BluetoothPairing: AnyObject {
    /// Looks for the one unpaired controller in range (or the one at `address`) and pairs it;
    /// `report` hears each step, the last one `ends`. The closure returned stops looking (a
    /// pairing already under way finishes).
    func pair(address: String?, report: @escaping @MainActor (PairingStep) -> Void) -> @MainActor () -> Void

    /// Removes the device at `address` and its pairing from BlueZ; `completion` gets nil when it
    /// went, else BlueZ's error. False (and no completion) when BlueZ does not know `address`.
    func forget(address: String, completion: @escaping @MainActor (String?) -> Void) -> Bool
}

/// One step of a pairing, as the control socket's `pair` streams it.
public enum PairingStep: Equatable, Sendable {
    /// Discovering: the controller must advertise (home held until the light blinks).
    case looking(address: String?)
    /// Found: being checked and paired.
    case pairing(address: String)
    /// Paired and trusted: it connects as every paired controller does.
    case paired(address: String)
    /// Several unpaired controllers are in range (`ADDRESS NAME` each): none was paired.
    case several([String])
    /// Nothing was paired, and why (what to do).
    case failed(String)

    /// The hint every search starts with.
    public static let holdHome = "hold its home button until the light blinks"

    /// The lines the control socket sends for this step.
    public var lines: [String] {
        switch self {
        case .looking(let address):
            ["looking for \(address ?? "an unpaired Daydream controller"): \(Self.holdHome)"]
        case .pairing(let address): ["pairing \(address)"]
        case .paired(let address): ["paired and trusted \(address)"]
        case .several(let candidates):
            candidates.map { "candidate \($0)" }
                + ["failed: \(candidates.count) unpaired Daydream controllers are in range, so none was paired: pair yours by its address"]
        case .failed(let reason): ["failed: \(reason)"]
        }
    }

    /// Whether this is the last step.
    public var ends: Bool {
        switch self {
        case .looking, .pairing: false
        case .paired, .several, .failed: true
        }
    }
}
