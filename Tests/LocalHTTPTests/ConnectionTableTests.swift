@testable import LocalHTTP
import Testing
import Timebase

/// Which connection goes when there are too many: the one idle longest, never an event stream.
@Suite struct ConnectionTableTests {
    /// Stand-ins for libmicrohttpd's connections: only compared, never followed.
    static func connection(_ number: Int) -> OpaquePointer {
        OpaquePointer(bitPattern: number * 16).unsafelyUnwrapped
    }

    @Test func theConnectionIdleLongestGoesAndAStreamStays() {
        var table = ConnectionTable(idleLimit: 3)
        let start = MonotonicTime.now()
        #expect(table.started(Self.connection(1), at: start) == nil)
        #expect(table.started(Self.connection(2), at: start + .seconds(1)) == nil)
        #expect(table.started(Self.connection(3), at: start + .seconds(2)) == nil)
        table.setStreaming(Self.connection(1), true)
        table.active(Self.connection(2), at: start + .seconds(3))
        #expect(table.started(Self.connection(4), at: start + .seconds(4)) == Self.connection(3), "idle longest, not the stream")
        #expect(table.started(Self.connection(5), at: start + .seconds(5)) == Self.connection(2))
        #expect(table.liveCount == 3)
        table.closed(Self.connection(3))
        table.closed(Self.connection(2))
        #expect(table.entries.count == 3)
        #expect(table.started(Self.connection(6), at: start + .seconds(6)) == Self.connection(4))
    }
}
