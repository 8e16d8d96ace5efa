/// The addresses a page served at a listen address can be opened at: what `ui` prints and
/// what the `Host` check accepts.
public enum PageAddresses {
    /// For `listen` (the port the server took): on every address (`0.0.0.0`), one per
    /// interface address in `interfaces` (`InterfaceAddresses.current()`), those other
    /// machines reach first, loopback last, each once; on one address, that one.
    public static func reachable(_ listen: ListenAddress, interfaces: [[UInt8]]) -> [ListenAddress] {
        guard listen.octets == [0, 0, 0, 0] else { return [listen] }
        var result: [ListenAddress] = []
        let valid = interfaces.filter { $0.count == 4 && $0 != [0, 0, 0, 0] }
        for octets in valid.filter({ $0[0] != 127 }) + valid.filter({ $0[0] == 127 }) {
            let address = ListenAddress(octets: octets, port: listen.port)
            if !result.contains(address) { result.append(address) }
        }
        return result
    }

    /// The first address other machines reach (for the phone's QR code), if any.
    public static func firstForOtherMachines(_ addresses: [ListenAddress]) -> ListenAddress? {
        addresses.first { !$0.isLoopback }
    }
}
