@testable import Bridge
@testable import BridgeTools
import DaydreamProtocol
import TestSupport
import Testing

/// The monitor's screen as golden text, and the pieces it is made of.
@Suite("monitor renderer")
struct MonitorRendererTests {
    /// A finger right of centre, app held, some motion.
    static let busy = DaydreamPacket(
        time: 100, sequence: 5,
        orientation: RawVector(0, 300, 0), acceleration: RawVector(10, 520, -30), gyro: RawVector(0, 40, -8),
        touchX: 230, touchY: 128, buttons: [.app, .volumeUp], status: 0
    )

    func golden(_ state: MonitorState, _ name: String, width: Int = 100, ansi: Bool = false) {
        let text = MonitorRenderer.render(state, width: width, ansi: ansi).joined(separator: "\n") + "\n"
        GoldenFile.check(text, against: Golden.goldenDirectory.appendingPathComponent(name))
    }

    @Test func nothingSeenYet() {
        golden(MonitorState(message: "waiting for a controller"), "monitor-waiting.txt")
    }

    @Test func aControllerWithAFingerAndButtons() {
        golden(MonitorState(
            address: "C0:DD:EE:00:00:01", source: "replay walk.recording", connected: true, packet: Self.busy,
            battery: 87, firmware: "1.0.8", packetRate: 61.25, received: 1234, lost: 3, malformed: 1
        ), "monitor-busy.txt")
    }

    @Test func aRunningDaemonsDSUClientsAreShown() {
        golden(MonitorState(
            address: "C0:DD:EE:00:00:01", connected: true, packet: Self.busy, received: 10,
            dsu: [
                "127.0.0.1:26760: 1 client, dropped none, evicted 0",
                "client 127.0.0.1:40000: all slots; last request 0.4 s ago",
            ]
        ), "monitor-dsu.txt")
    }

    @Test func dsuLinesOnlyWithADaemonAndAtMostThreeClients() {
        let none = MonitorRenderer.render(MonitorState(address: "C0:DD:EE:00:00:01"))
        #expect(!none.contains { $0.contains("dsu") })
        #expect(MonitorRenderer.daemonDSU(["DSU off"]) == ["", "  daemon dsu   DSU off"])
        let clients = (1...5).map { "client 127.0.0.1:4000\($0): slot 0; last request 1.0 s ago" }
        let lines = MonitorRenderer.daemonDSU(["127.0.0.1:26760: 5 clients, dropped none, evicted 0"] + clients)
        #expect(lines.count == 6)
        #expect(lines[4] == "               client 127.0.0.1:40003: slot 0; last request 1.0 s ago")
        #expect(lines[5] == "               and 2 more")
    }

    @Test func aClickTurnsTheRimToStars() {
        let clicked = DaydreamPacket(touchX: 128, touchY: 128, buttons: [.click])
        golden(MonitorState(address: "C0:DD:EE:00:00:01", connected: true, packet: clicked, received: 1), "monitor-click.txt")
    }

    @Test func aGearVRShowsItsTriggerAndBackAndNoAppButton() {
        var packet = DaydreamPacket(buttons: [.trigger])
        packet.family = .gearVR
        let line = MonitorRenderer.render(MonitorState(packet: packet), ansi: false).first { $0.contains("buttons") } ?? ""
        #expect(line.contains("[TRIG]"))
        #expect(line.contains(" back "))
        #expect(!line.contains("app"))
        #expect(!MonitorRenderer.buttons([], ansi: false).contains("trig"))
    }

    @Test func ansiMarksPressedButtonsInReverseVideo() {
        let text = MonitorRenderer.buttons([.home], ansi: true)
        #expect(text.contains("\u{1B}[7m[HOME]\u{1B}[0m"))
        #expect(text.contains(" app "))
        let plain = MonitorRenderer.render(MonitorState(packet: Self.busy), ansi: false)
        let coloured = MonitorRenderer.render(MonitorState(packet: Self.busy), ansi: true)
        let stripped = coloured.map { $0.replacing("\u{1B}[7m", with: "").replacing("\u{1B}[0m", with: "").replacing("\u{1B}[1m", with: "") }
        #expect(stripped == plain)
    }

    @Test func linesAreClippedToTheWidthButKeepTheirEscapes() {
        let lines = MonitorRenderer.render(MonitorState(packet: Self.busy), width: 30, ansi: true)
        for line in lines {
            let visible = line.replacing(/\x{1B}\[[0-9;]*[a-zA-Z]/, with: "")
            #expect(visible.count <= 30)
        }
        #expect(lines[0].hasSuffix("\u{1B}[0m"))
    }

    @Test func theFingerDotFollowsTheTouch() {
        let left = MonitorRenderer.touchpad(DaydreamPacket(touchX: 1, touchY: 128))
        let right = MonitorRenderer.touchpad(DaydreamPacket(touchX: 255, touchY: 128))
        let top = MonitorRenderer.touchpad(DaydreamPacket(touchX: 128, touchY: 1))
        #expect(left[5].firstIndex(of: "●") == left[5].startIndex)
        #expect(right[5].last == "●")
        #expect(top[0].contains("●"))
        #expect(!MonitorRenderer.touchpad(DaydreamPacket()).joined().contains("●"))
    }

    @Test func numbersAreFixedWidthWithoutALocale() {
        #expect(MonitorRenderer.fixed(3.14159, 2, 7) == "   3.14")
        #expect(MonitorRenderer.fixed(-0.004, 2, 6) == "  0.00")
        #expect(MonitorRenderer.fixed(-12.25, 1, 6) == " -12.3" || MonitorRenderer.fixed(-12.25, 1, 6) == " -12.2")
        #expect(MonitorRenderer.fixed(0.5, 0, 2) == " 1" || MonitorRenderer.fixed(0.5, 0, 2) == " 0")
        #expect(MonitorRenderer.fixed(9.999, 2, 5) == "10.00")
    }
}
