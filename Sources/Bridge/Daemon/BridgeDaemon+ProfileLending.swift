import DaydreamCore
import Mapping

/// What the daemon still owes profiles with `lend = true`: the controllers to lend and take back
/// at the end of the loop turn, and the ones to lend once they connect.
struct ProfileLending {
    /// The controllers whose profile changed, with whether the new one lends (true) or not.
    var due: [String: Bool] = [:]
    /// The controllers whose profile lends, which were not connected when it became theirs.
    var awaitingConnection: Set<String> = []
    /// Whether a loop turn's end is to carry out `due`.
    var isScheduled = false
}

/// Profiles with `lend = true`: a controller that comes into one (by any switch: a command, the
/// launch wrapper, the focus rules, a chord, D-Bus) is lent as `lend` lends it, and taken back
/// when it leaves it for one that does not lend. Monado takes the controller once, when its
/// service starts, so `daydream-bridge profile vr -- monado-service` lends it before it starts.
extension BridgeDaemon {
    /// Whether the profile called `name` lends its controllers.
    func profileLends(_ name: String) -> Bool {
        configuration.profile(named: name)?.lend == true
    }

    /// The controller at `address` went from profile `from` to `to` (perhaps the same): lent when
    /// `to` lends, taken back when only `from` did; at the end of the loop turn (a chord switches
    /// in the middle of a packet's delivery, when the link cannot let go of its notifications) or
    /// before a command's reply (`settleProfileLending`). One lent by hand stays lent across
    /// profiles that do not lend.
    func profileSwitched(address: String, from: String, to: String) {
        let lends = profileLends(to)
        guard lends || profileLends(from) else { return }
        profileLending.due[address] = lends
        scheduleProfileLending()
    }

    /// A session made in a profile that lends: its controller is lent once it connects.
    func sessionStarted(address: String, in profile: String) {
        if profileLends(profile) { profileLending.awaitingConnection.insert(address) }
    }

    /// The controller at `address` connected: lent now when its profile became one that lends
    /// while it was away (a reconnection of a lent controller stays lent by itself).
    func connectedForProfileLending(address: String, profile: String) {
        guard profileLending.awaitingConnection.remove(address) != nil, profileLends(profile) else { return }
        profileLending.due[address] = true
        scheduleProfileLending()
    }

    /// A new configuration runs: a controller whose profile now lends and did not is lent, one
    /// whose profile lent and no longer does is taken back (a reload's own switches say the rest).
    func configurationReplacedForLending(from old: MappingConfiguration) {
        for slot in registry.slots {
            guard let address = slot.address, let name = slot.session?.profileName else { continue }
            let lends = profileLends(name)
            guard let before = old.profile(named: name), before.lend != lends else { continue }
            profileLending.due[address] = lends
            scheduleProfileLending()
        }
    }

    /// Lends and takes back what the profile switches since the last time call for.
    func settleProfileLending() {
        let due = profileLending.due
        profileLending.due = [:]
        for (address, lends) in due.sorted(by: { $0.key < $1.key }) {
            guard let feed = registry.feed(of: address) else { continue }
            if lends { lendForProfile(feed) } else { reclaimForProfile(feed) }
        }
    }

    private func scheduleProfileLending() {
        guard !profileLending.isScheduled else { return }
        profileLending.isScheduled = true
        reactor.callSoon { [weak self] in
            self?.profileLending.isScheduled = false
            self?.settleProfileLending()
        }
    }

    private func lendForProfile(_ feed: ControllerFeed) {
        guard !feed.isLent else { return }
        switch feed.setLent(true) {
        case true?:
            Logger.notice("\(feed.address): lent, as its profile says; everything released")
        case false?:
            profileLending.awaitingConnection.insert(feed.address.uppercased())
            Logger.info("\(feed.address): its profile lends it; lent once it connects")
        case nil:
            Logger.warning("\(feed.address): its profile lends it, but only a controller connected through BlueZ can be lent")
        }
    }

    private func reclaimForProfile(_ feed: ControllerFeed) {
        profileLending.awaitingConnection.remove(feed.address.uppercased())
        guard feed.isLent else { return }
        _ = feed.setLent(false)
        Logger.notice("\(feed.address): taken back, as its profile does not lend it")
    }
}
