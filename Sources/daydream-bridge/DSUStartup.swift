import Bridge
import BridgeConfig
import DSU
import DSUServer
import EventLoop

/// `run --dsu[=ADDR:PORT]` and `[dsu]`: which address the DSU server listens on, and starting it.
enum DSUStartup {
    /// The address to listen on: the command line's (`--dsu` alone takes the config's, else the
    /// default), else the config's; nil when neither asks for DSU. A bad address is a usage error.
    static func address(option: String?, configuration: DSUConfiguration?) throws(UsageError) -> DSUListenAddress? {
        guard let option else { return configuration?.listen }
        if option.isEmpty { return configuration?.listen ?? .default }
        switch DSUListenAddress.parse(option) {
        case .success(let address):
            return address
        case .failure(let problem):
            throw UsageError("--dsu: \(problem)")
        }
    }

    /// The server listening on `address`, or nil, logged in one line, when the address cannot be
    /// had (a port in use): the bridge runs on without DSU. An address other machines can reach
    /// is logged as the choice it is.
    @MainActor
    static func start(on address: DSUListenAddress, reactor: Reactor) -> DSUServer? {
        do {
            let server = try DSUServer(listeningOn: address, reactor: reactor)
            if address.isLoopback {
                Logger.info("dsu: serving the controllers to emulators on \(server.address)")
            } else {
                Logger.notice("dsu: serving the controllers on \(server.address), not a loopback address: "
                    + "other machines can read them (as asked)")
            }
            return server
        } catch {
            Logger.error("dsu: \(error); running without DSU")
            return nil
        }
    }
}
