@testable import Bridge
import DaydreamCore
import DaydreamProtocol
import Testing

/// `lend` and `reclaim` as commands: what the daemon does with them, what it refuses and how
/// every door shows it (the control socket's request and lines, the status, the state).
@MainActor
struct LendingTests {
    typealias Harness = DaemonTests.Harness

    /// A transport that can lend, as the BlueZ link does: lending reports the link down after
    /// recording it, taking back reports it up once it "streams" again.
    static func lendable(_ feed: ControllerFeed, _ harness: Harness) {
        feed.lender = { [unowned feed, unowned harness] lend in
            guard feed.isConnected || feed.isLent else { return false }
            feed.lendingChanged(lent: lend, at: harness.reactor.now)
            feed.linkChanged(connected: !lend, at: harness.reactor.now)
            return true
        }
    }

    @Test func lendingReleasesEverythingAndShowsLentEverywhere() throws {
        let harness = try Harness()
        defer { harness.finish() }
        let feed = harness.controller()
        Self.lendable(feed, harness)
        var changes: [BridgeState.Change] = []
        let observation = harness.daemon.state.observe { changes.append($0) }
        defer { observation.cancel() }
        harness.send(feed, [.click, .app])
        let output = harness.outputs[0]
        #expect(!output.atRest)

        let lent = harness.daemon.perform(.lend(controller: nil))
        #expect(lent == .success(["C0:DD:EE:00:00:01: pad, lent"]))
        #expect(output.atRest)
        #expect(output.lines.last == "gamepad EV_SYN SYN_REPORT 0")
        #expect(harness.daemon.state.controller("C0:DD:EE:00:00:01")?.isLent == true)
        #expect(changes.contains(.controller("C0:DD:EE:00:00:01", [.lent])))
        #expect(ControlDoor(daemon: harness.daemon).answer(.controllers).details == ["C0:DD:EE:00:00:01\tlent\t-\t-\tpad\t-"])
        #expect(harness.daemon.statusLine == "C0:DD:EE:00:00:01: pad, lent")

        let reclaimed = harness.daemon.perform(.reclaim(controller: "c0:dd:ee:00:00:01"))
        #expect(reclaimed == .success(["C0:DD:EE:00:00:01: pad, connected"]))
        #expect(harness.daemon.state.controller("C0:DD:EE:00:00:01")?.isLent == false)
        // A button still held from before is released first, as after any disconnect.
        harness.send(feed, [])
        harness.send(feed, .click)
        #expect(output.lines.suffix(2) == ["gamepad EV_KEY BTN_SOUTH 1", "gamepad EV_SYN SYN_REPORT 0"])
    }

    @Test func lendingRefusesWhatCannotBeLentWithOneMessage() throws {
        let harness = try Harness()
        defer { harness.finish() }
        let feed = harness.controller()
        // A recording's feed has no transport that could lend it.
        #expect(harness.daemon.perform(.lend(controller: nil)) == .failure(.cannotLend("C0:DD:EE:00:00:01")))
        Self.lendable(feed, harness)
        #expect(harness.daemon.perform(.lend(controller: "C0:DD:EE:00:00:09"))
            == .failure(.noController("C0:DD:EE:00:00:09", controllers: ["C0:DD:EE:00:00:01"])))
        #expect(harness.daemon.perform(.lend(controller: nil)) == .success(["C0:DD:EE:00:00:01: pad, lent"]))
        let again = harness.daemon.perform(.lend(controller: "C0:DD:EE:00:00:01"))
        #expect(again == .failure(.alreadyLent("C0:DD:EE:00:00:01")))
        #expect(harness.daemon.perform(.lend(controller: nil)) == .failure(.alreadyLent("C0:DD:EE:00:00:01")))
        // The control socket says what the D-Bus API says, from the same refusal.
        let reply = ControlDoor(daemon: harness.daemon).answer(.lend(address: nil))
        #expect(reply.lines == ["error: controller C0:DD:EE:00:00:01 is lent already; 'daydream-bridge reclaim' takes it back"])
        #expect(BridgeRefusal.alreadyLent("C0:DD:EE:00:00:01").name == "AlreadyLent")

        _ = harness.daemon.perform(.reclaim(controller: nil))
        feed.linkChanged(connected: false, at: harness.reactor.now)
        let offline = harness.daemon.perform(.lend(controller: "C0:DD:EE:00:00:01"))
        #expect(offline == .failure(.notConnectedToLend("C0:DD:EE:00:00:01")))
        #expect(harness.daemon.perform(.lend(controller: nil)) == .failure(.notConnectedToLend(nil)))
        #expect(BridgeRefusal.notConnectedToLend(nil).name == "NotConnected")
        // Taking back one that is not lent changes nothing.
        #expect(harness.daemon.perform(.reclaim(controller: nil)) == .success(["C0:DD:EE:00:00:01: pad, disconnected"]))
    }

    @Test func theControlSocketParsesLendAndReclaim() throws {
        #expect(try ControlRequest.parse("lend").get() == .lend(address: nil))
        #expect(try ControlRequest.parse("lend C0:DD:EE:00:00:01").get() == .lend(address: "C0:DD:EE:00:00:01"))
        #expect(try ControlRequest.parse("reclaim").get() == .reclaim(address: nil))
        #expect(try ControlRequest.parse("reclaim C0:DD:EE:00:00:01").get() == .reclaim(address: "C0:DD:EE:00:00:01"))
        #expect(throws: ControlError("usage: lend [ADDRESS]")) { try ControlRequest.parse("lend a b").get() }
        #expect(throws: ControlError("usage: reclaim [ADDRESS]")) { try ControlRequest.parse("reclaim a b").get() }
        for request in [ControlRequest.lend(address: nil), .lend(address: "A"), .reclaim(address: nil), .reclaim(address: "A")] {
            #expect(try ControlRequest.parse(request.line).get() == request)
            #expect(!request.streamsReply)
        }
        #expect(ControlRequest.lend(address: "A").command == .lend(controller: "A"))
        #expect(ControlRequest.reclaim(address: nil).command == .reclaim(controller: nil))
    }

    @Test func aControllersLineSaysLent() {
        var line = ControllerLine(address: "C0:DD:EE:00:00:01", isConnected: false, batteryPercent: 80, firmware: nil, profile: "pad", name: nil)
        line.isLent = true
        #expect(line.text == "C0:DD:EE:00:00:01\tlent\t80\t-\tpad\t-")
        #expect(ControllerLine(text: line.text) == line)
    }
}
