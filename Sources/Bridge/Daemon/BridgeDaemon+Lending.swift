import DaydreamCore

/// Lending controllers to another program (Monado) and taking them back: the link lets go of the
/// input notifications and keeps the connection; the session releases everything as on a
/// disconnect (the link reports down), and the state shows `lent`.
extension BridgeDaemon {
    /// Lends every controller that is not lent (or the one at `address`); the transport decides
    /// whether it is connected (a silent stream's link still is). The status lines after it.
    func lend(address: String?) -> BridgeOutcome {
        registry.sessions(for: address).flatMap { targets in
            let feeds = targets.compactMap { registry.feed(of: $0.address) }
            if let address {
                guard let feed = feeds.first else { return .failure(.notConnectedToLend(address.uppercased())) }
                guard !feed.isLent else { return .failure(.alreadyLent(feed.address)) }
            }
            var lent = 0
            for feed in feeds where !feed.isLent {
                switch feed.setLent(true) {
                case nil: return .failure(.cannotLend(feed.address))
                case false?: continue
                case true?:
                    lent += 1
                    Logger.notice("\(feed.address): lent; everything released")
                }
            }
            guard lent > 0 else {
                if address == nil, let lentAlready = feeds.first(where: \.isLent) { return .failure(.alreadyLent(lentAlready.address)) }
                return .failure(.notConnectedToLend(address == nil ? nil : feeds.first?.address))
            }
            return .success(statusLines)
        }
    }

    /// Takes back every lent controller (or the one at `address`; one not lent stays as it is);
    /// the status lines after it.
    func reclaim(address: String?) -> BridgeOutcome {
        registry.sessions(for: address).map { targets in
            for feed in targets.compactMap({ registry.feed(of: $0.address) }) where feed.isLent {
                _ = feed.setLent(false)
                Logger.notice("\(feed.address): taken back")
            }
            return statusLines
        }
    }
}
