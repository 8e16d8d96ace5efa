import EventLoop
import FocusTracking
import TestSupport
import Testing
import Timebase

/// What a started focus source told: each focus in order, and why it ended.
@MainActor
final class FocusHeard {
    private(set) var focuses: [WindowFocus] = []
    private(set) var ending: String?

    /// Starts `source`, keeping what it tells.
    func listen(to source: any FocusSource) {
        source.start(changed: { [weak self] in self?.focuses.append($0) }, ended: { [weak self] in self?.ending = $0 })
    }

    /// Turns `reactor` until the last focus heard has `ids`, 10 s at the most.
    func waitForFocus(_ ids: [String], on reactor: Reactor) -> Bool {
        reactor.run(until: { focuses.last?.ids == ids }, timeout: .seconds(10), checkingEvery: .milliseconds(20))
    }

    /// Turns `reactor` until the source ended, 10 s at the most.
    func waitForEnd(on reactor: Reactor) -> Bool {
        reactor.run(until: { ending != nil }, timeout: .seconds(10), checkingEvery: .milliseconds(20))
    }

    /// What a focus source tells on `desktop`, checked: with `xonotic-sdl` and `notes-app` open
    /// and the first focused, the source (`open` makes it on a loop) tells that focus at its
    /// start; focusing the other, that one; the desktop stopped, it ends with `ending`. `ids`
    /// are the ids the source gives a window of the desktop's. What it heard, for more checks.
    static func check(on desktop: some FocusDesktop, open: (Reactor) throws -> any FocusSource, ids: (String) -> [String],
                      ending: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> FocusHeard {
        let game = try desktop.client("xonotic-sdl")
        let notes = try desktop.client("notes-app")
        defer { game.stop(); notes.stop() }
        try desktop.focus("xonotic-sdl")
        let reactor = try Reactor()
        let source = try open(reactor)
        defer { source.stop() }
        let heard = FocusHeard()
        heard.listen(to: source)
        // The focus now, told at the start.
        #expect(heard.focuses.last?.ids == ids("xonotic-sdl"), "\(heard.focuses)", sourceLocation: sourceLocation)
        try desktop.focus("notes-app")
        #expect(heard.waitForFocus(ids("notes-app"), on: reactor), "\(heard.focuses)", sourceLocation: sourceLocation)
        #expect(heard.ending == nil, sourceLocation: sourceLocation)
        desktop.stop()
        #expect(heard.waitForEnd(on: reactor), sourceLocation: sourceLocation)
        #expect(heard.ending == ending, sourceLocation: sourceLocation)
        return heard
    }
}
