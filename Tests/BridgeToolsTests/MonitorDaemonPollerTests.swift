import Bridge
import BridgeTools
import EventLoop
import Foundation
import Testing
import Timebase

/// The monitor asks a running daemon for its DSU lines, and shows nothing once none answers.
@MainActor
@Suite struct MonitorDaemonPollerTests {
    @Test func theDaemonsDSULinesReachTheModel() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-poller-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/control"
        let reactor = try Reactor()
        var asked = 0
        let server = try ControlServer(path: path, reactor: reactor) { request in
            asked += 1
            return request == .dsu ? .ok(["127.0.0.1:26760: 0 clients, dropped none, evicted \(asked)"]) : .error("not dsu")
        }
        let model = MonitorModel(feed: nil, source: "live")
        let poller = MonitorDaemonPoller(model: model, paths: [path], reactor: reactor)
        poller.start()
        #expect(reactor.run(until: { model.dsu != nil }, timeout: .seconds(5)))
        let firstAnswer = reactor.now
        #expect(model.currentState().dsu == ["127.0.0.1:26760: 0 clients, dropped none, evicted 1"])
        // Asked again a second after the answer, not before.
        #expect(reactor.run(until: { asked == 2 }, timeout: .seconds(5)))
        #expect((reactor.now - firstAnswer).seconds >= 0.9)
        #expect(reactor.run(until: { model.dsu?.first?.hasSuffix("evicted 2") == true }, timeout: .seconds(5)))
        // The daemon stops: the lines go.
        server.close()
        #expect(reactor.run(until: { model.dsu == nil }, timeout: .seconds(5)))
        poller.stop()
    }
}
