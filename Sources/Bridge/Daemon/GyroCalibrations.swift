import DaydreamProtocol
import EventLoop
import Mapping
import Timebase

/// The daemon's gyro biases: the ones measured (kept in the store, so they apply after a
/// reconnect and a restart), and the `calibrate` streams waiting for measurements to end. A
/// stream hears each controller's progress and result; a controller that sends no packets for
/// the hold and `patience` more is given up on.
@MainActor
final class GyroCalibrations {
    /// How long past the hold a stream waits for a controller's result, in seconds.
    static let patience = 5.0

    /// Where biases are kept; nil: measured ones apply until the daemon exits.
    let store: GyroBiasStore?
    /// Every known bias by upper-case address.
    private(set) var biases: [String: Vector3]
    private var waiting: [Waiter] = []

    private final class Waiter {
        let stream: ControlStream
        var addresses: Set<String>
        var deadline: ScheduledTimer?
        init(stream: ControlStream, addresses: Set<String>) {
            self.stream = stream
            self.addresses = addresses
        }
    }

    /// The biases `store` holds.
    init(store: GyroBiasStore?) {
        self.store = store
        let contents = store?.read() ?? GyroBiasStore.Contents()
        biases = contents.biases
        for problem in contents.problems { Logger.warning(problem) }
    }

    /// Reports the measurements of `addresses` on `stream` until each ends; `giveUp` runs for
    /// the ones that sent nothing in time.
    func report(_ addresses: [String], on stream: ControlStream, reactor: Reactor, giveUp: @escaping @MainActor (String) -> Void) {
        let seconds = GyroCalibration.defaultDuration
        stream.send("ok")
        for address in addresses { stream.send("\(address): measuring the gyro's bias: hold it still for \(Int(seconds)) s") }
        guard !addresses.isEmpty else { return stream.finish() }
        let waiter = Waiter(stream: stream, addresses: Set(addresses))
        waiting.append(waiter)
        stream.onEnd = { [weak self, weak waiter] in
            waiter?.deadline?.cancel()
            self?.waiting.removeAll { $0 === waiter }
        }
        waiter.deadline = reactor.schedule(after: .seconds(seconds + Self.patience)) { [weak waiter] in
            guard let waiter else { return }
            for address in waiter.addresses.sorted() {
                giveUp(address)
                waiter.stream.send("\(address): failed: no motion arrived; is it connected and awake?")
            }
            waiter.stream.finish()
        }
    }

    /// A measurement got `fraction` of the way.
    func progress(_ fraction: Double, for address: String) {
        tell(address, "\(address): measuring, \(Int((fraction * 100).rounded()))%", ends: false)
    }

    /// A measurement ended with `bias`: kept, stored, and said. A bias the state directory
    /// cannot take still applies until the bridge stops, but the measurement is said to have
    /// failed: the next start would aim without it.
    func measured(_ bias: Vector3, for address: String) {
        biases[address.uppercased()] = bias
        let problem = store.map { $0.save(bias, for: address) }
            ?? "no state directory: none of STATE_DIRECTORY, XDG_STATE_HOME and HOME is set"
        guard let problem else {
            Logger.notice("\(address): gyro bias \(Self.degrees(bias)) measured, stored")
            tell(address, "\(address): bias \(Self.degrees(bias)), stored", ends: true)
            return
        }
        Logger.error("\(address): gyro bias \(Self.degrees(bias)) measured but not stored: \(problem)")
        tell(address, "\(address): failed: bias \(Self.degrees(bias)) applies until the bridge stops "
            + "but was not stored: \(problem)", ends: true)
    }

    /// A measurement failed because the controller moved.
    func moved(_ address: String) {
        Logger.warning("\(address): the controller moved while the gyro's bias was measured; nothing changed: "
            + "put it down and calibrate again")
        tell(address, "\(address): failed: it moved; nothing changed: put it down and calibrate again", ends: true)
    }

    /// The controller went away while measured.
    func disconnected(_ address: String) {
        tell(address, "\(address): failed: disconnected", ends: true)
    }

    /// One line per controller in `addresses`: its bias, or that it has none.
    func lines(for addresses: [String]) -> [String] {
        addresses.map { address in
            biases[address.uppercased()].map { "\(address): bias \(Self.degrees($0))" } ?? "\(address): not calibrated"
        }
    }

    private func tell(_ address: String, _ line: String, ends: Bool) {
        for waiter in waiting where waiter.addresses.contains(address) {
            waiter.stream.send(line)
            guard ends else { continue }
            waiter.addresses.remove(address)
            if waiter.addresses.isEmpty { waiter.stream.finish() }
        }
    }

    /// `x 0.12 y -0.05 z 0.01 deg/s`.
    static func degrees(_ bias: Vector3) -> String {
        func text(_ radians: Double) -> String {
            String(Double(Int((UnitConversion.degrees(radians: radians) * 100).rounded())) / 100)
        }
        return "x \(text(bias.x)) y \(text(bias.y)) z \(text(bias.z)) deg/s"
    }
}
