import Timebase

/// The server's open connections and when each last did something (connected, or had a request
/// come in or end). Past `idleLimit` connections, each new one lets go of the connection idle
/// longest that is not an event stream: connections opened and left silent, however many, never
/// lock a new client out, and a client that works is the last to be let go.
struct ConnectionTable {
    /// One connection's record.
    struct Entry {
        /// When it connected, or a request of it last came in or ended.
        var lastActive: MonotonicTime
        /// An event stream is answering on it: it is never let go for being quiet.
        var streaming = false
        /// It was let go and is waiting for the server to close it.
        var evicted = false
    }

    /// How many connections may stay before the idle longest is let go.
    let idleLimit: Int
    private(set) var entries: [OpaquePointer: Entry] = [:]

    init(idleLimit: Int) {
        self.idleLimit = idleLimit
    }

    /// How many connections are open and not let go.
    var liveCount: Int { entries.values.count { !$0.evicted } }

    /// `connection` opened at `now`: the connection to let go, if the table is past its limit.
    mutating func started(_ connection: OpaquePointer, at now: MonotonicTime) -> OpaquePointer? {
        entries[connection] = Entry(lastActive: now)
        guard liveCount > idleLimit else { return nil }
        let candidates = entries.filter { $0.key != connection && !$0.value.streaming && !$0.value.evicted }
        guard let oldest = candidates.min(by: { $0.value.lastActive < $1.value.lastActive })?.key else { return nil }
        entries[oldest]?.evicted = true
        return oldest
    }

    /// A request on `connection` came in or ended at `now`.
    mutating func active(_ connection: OpaquePointer, at now: MonotonicTime) {
        entries[connection]?.lastActive = now
    }

    /// Whether an event stream is answering on `connection`.
    mutating func setStreaming(_ connection: OpaquePointer, _ streaming: Bool) {
        entries[connection]?.streaming = streaming
    }

    /// `connection` closed.
    mutating func closed(_ connection: OpaquePointer) {
        entries[connection] = nil
    }
}
