/// The reactor's watches, found from an epoll token without hashing: the low 32 bits of a
/// token are a slot index (offset by `firstToken`), the high 32 bits the count of watches made
/// (wrapping at 2^32), so a slot reused after a cancel does not answer to its old token.
struct WatchTable {
    /// Tokens below this are the reactor's own descriptors (timer, wake-up, signals).
    static let firstToken: UInt64 = 16

    private var slots: [IOWatch?] = []
    private var freeSlots: [Int] = []
    private var issued: UInt64 = 0

    /// The token the next `insert` will use: the caller registers it with epoll first.
    func nextToken() -> UInt64 {
        let slot = freeSlots.last ?? slots.count
        return (issued + 1) << 32 | (UInt64(slot) + Self.firstToken)
    }

    /// Stores `watch` under its token, which must be `nextToken()`.
    mutating func insert(_ watch: IOWatch) {
        issued += 1
        let slot = Int(truncatingIfNeeded: watch.token & 0xFFFF_FFFF) - Int(Self.firstToken)
        if slot == slots.count {
            slots.append(watch)
        } else {
            freeSlots.removeLast()
            slots[slot] = watch
        }
    }

    /// The live watch with `token`, if any.
    subscript(token: UInt64) -> IOWatch? {
        let slot = Int(truncatingIfNeeded: token & 0xFFFF_FFFF) &- Int(Self.firstToken)
        guard slot >= 0, slot < slots.count, let watch = slots[slot], watch.token == token else { return nil }
        return watch
    }

    /// Removes the watch with `token`; returns whether there was one.
    mutating func remove(_ token: UInt64) -> Bool {
        guard let watch = self[token] else { return false }
        let slot = Int(truncatingIfNeeded: watch.token & 0xFFFF_FFFF) - Int(Self.firstToken)
        slots[slot] = nil
        freeSlots.append(slot)
        return true
    }

    /// Every live watch.
    var all: [IOWatch] { slots.compactMap { $0 } }
}
