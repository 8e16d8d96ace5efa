import BlueZ
import EventLoop
import Timebase

/// The battery level of one controller for as long as its stream lives, for its
/// feed: the Battery Level characteristic (2A19), read at once and then followed
/// through its notifications (read every `pollInterval` when it cannot notify or
/// they are refused); or, when BlueZ's battery plugin claims the Battery Service
/// and exports no 2A19, the plugin's `Battery1.Percentage`. The link makes one
/// when the stream starts and stops it when the link is lost.
@MainActor
final class ControllerBattery {
    private let feed: ControllerFeed
    private let client: BlueZClient
    private let reactor: Reactor
    private let log: LogSink
    private let devicePath: String
    /// The 2A19 characteristic; nil: the battery plugin has the level.
    private let level: CharacteristicInfo?
    /// Whether a reading may be taken now (the stream flows, not interrupted).
    private let mayRead: @MainActor () -> Bool
    private var pollTimer: ScheduledTimer?
    /// Reads sent and not answered yet.
    private var readsPending = 0
    private var stopped = false

    init(level: CharacteristicInfo?, devicePath: String, feed: ControllerFeed, client: BlueZClient, reactor: Reactor,
         log: LogSink, mayRead: @escaping @MainActor () -> Bool) {
        self.level = level
        self.devicePath = devicePath
        self.feed = feed
        self.client = client
        self.reactor = reactor
        self.log = log
        self.mayRead = mayRead
    }

    /// Reads the level and follows it; a notification session goes to `sessions`.
    func start(sessions: NotifySessions, pollInterval: TimeSpan) {
        guard let level else {
            // No 2A19 exported: BlueZ's battery plugin has it (it notifies through PropertiesChanged).
            pluginChanged()
            return
        }
        read()
        guard level.canNotify else { return poll(every: pollInterval) }
        client.setValueObserver(characteristic: level.path) { [weak self] value in
            // BlueZ also signals the value a read fetched: the read's reply reports that one.
            guard let self, readsPending == 0 else { return }
            if let percent = value.first { feed.batteryChanged(percent: Int(percent), at: reactor.now) }
        }
        sessions.start(level.path) { [weak self] result in
            guard let self, !stopped, case .failure(let error) = result else { return }
            log.info("\(feed.address): battery notifications refused (\(error)); polling")
            poll(every: pollInterval)
        }
    }

    /// Stops following the level; answers still to come are dropped.
    func stop() {
        stopped = true
        pollTimer?.cancel()
        pollTimer = nil
        if let level { client.setValueObserver(characteristic: level.path, nil) }
    }

    /// Reads the level; the feed's consumers hear it when it arrives.
    func read() {
        guard !stopped, mayRead() else { return }
        guard let level else { return pluginChanged() }
        readsPending += 1
        client.readValue(characteristic: level.path) { [weak self] result in
            guard let self, !stopped else { return }
            readsPending -= 1
            switch result {
            case .success(let value):
                if let percent = value.first { feed.batteryChanged(percent: Int(percent), at: reactor.now) }
            case .failure(let error):
                log.info("\(feed.address): battery read failed: \(error)")
            }
        }
    }

    /// The device's `Battery1` appeared or changed.
    func pluginChanged() {
        guard !stopped, mayRead(), level == nil,
              let percent = client.cache.properties(devicePath, BlueZNames.battery)?["Percentage"]?.integer else { return }
        feed.batteryChanged(percent: percent, at: reactor.now)
    }

    private func poll(every interval: TimeSpan) {
        pollTimer?.cancel()
        pollTimer = reactor.schedule(after: interval) { [weak self] in
            self?.read()
            self?.poll(every: interval)
        }
    }
}
