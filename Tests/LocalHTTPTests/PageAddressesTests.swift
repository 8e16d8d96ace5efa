import Foundation
import LocalHTTP
import TestSupport
import Testing

/// `ui --listen 0.0.0.0:PORT`: the addresses printed, one per interface address (injected
/// here: the tests listen on loopback only), and the Host check that accepts exactly those.
@Suite("page addresses")
struct PageAddressesTests {
    static let interfaces: [[UInt8]] = [[127, 0, 0, 1], [192, 168, 1, 20], [10, 0, 0, 5], [192, 168, 1, 20], [0, 0, 0, 0]]

    @Test func everyAddressListensOnEachInterfacesAddressOtherMachinesFirstNeverTheWildcard() {
        let listed = PageAddresses.reachable(ListenAddress(octets: [0, 0, 0, 0], port: 7355), interfaces: Self.interfaces)
        #expect(listed.map(\.description) == ["192.168.1.20:7355", "10.0.0.5:7355", "127.0.0.1:7355"])
        #expect(PageAddresses.firstForOtherMachines(listed)?.description == "192.168.1.20:7355")
    }

    @Test func oneAddressIsItsOwnOnlyAndLoopbackHasNoneForAPhone() {
        let one = ListenAddress(octets: [192, 168, 1, 20], port: 8000)
        #expect(PageAddresses.reachable(one, interfaces: Self.interfaces) == [one])
        let loopbackOnly = PageAddresses.reachable(ListenAddress(octets: [0, 0, 0, 0], port: 1), interfaces: [[127, 0, 0, 1]])
        #expect(loopbackOnly.map(\.description) == ["127.0.0.1:1"])
        #expect(PageAddresses.firstForOtherMachines(loopbackOnly) == nil)
    }

    @Test @MainActor func theHostsAcceptedAreTheListedAddressesAndTheListenAddress() throws {
        let listen = ListenAddress(octets: [0, 0, 0, 0], port: 7355)
        let access = try #require(PageAccess(address: listen, reachable: PageAddresses.reachable(listen, interfaces: Self.interfaces)))
        #expect(access.hosts == ["0.0.0.0:7355", "192.168.1.20:7355", "10.0.0.5:7355", "127.0.0.1:7355"])
    }

    @Test func thisMachinesInterfacesIncludeLoopback() {
        #expect(InterfaceAddresses.current().contains([127, 0, 0, 1]))
    }
}

/// A real request to a server on 127.0.0.1 whose rules list another address, as `0.0.0.0`
/// would: a `Host` naming it is let in, token and cookie and Origin rules as before.
@Suite("page addresses over HTTP", .serialized, .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl"))
@MainActor
struct PageAddressesHTTPTests {
    @Test func aListedAddressIsAcceptedAsTheHostAndAnUnlistedOneIsNot() throws {
        let rig = try LocalHTTPTests.Rig(reachable: [[192, 0, 2, 7]])
        let port = rig.server?.address.port ?? 0
        let listed = "192.0.2.7:\(port)"
        let token = try #require(rig.access.issueToken())
        #expect(try rig.curl(["-H", "Host: 192.0.2.8:\(port)", rig.base + "/?token=" + token]).status == 403, "an unlisted address")
        #expect(try rig.curl(["-H", "Host: \(listed)", rig.base + "/?token=" + token]).status == 200, "the token, at the listed address")
        let cookie = try rig.session()
        #expect(try rig.curl(["-H", cookie, "-H", "Host: \(listed)", rig.base + "/app.js"]) == (200, "let a = 1;\n"))
        #expect(try rig.curl(["-H", cookie, "-H", "Host: 192.0.2.7:\(port + 1)", rig.base + "/app.js"]).status == 403, "another port")
        let post = ["-H", cookie, "-H", "Host: \(listed)", "--data", "value=x", rig.base + "/api/echo"]
        #expect(try rig.curl(["-H", "Origin: http://\(listed)"] + post) == (200, "\"x\""), "a change from the page at the listed address")
        #expect(try rig.curl(["-H", "Origin: http://192.0.2.8:\(port)"] + post).status == 403, "a change from elsewhere")
    }
}
