import Timebase

/// Pending deadlines in a binary min-heap; cancelled entries are dropped lazily.
struct TimerQueue {
    struct Entry {
        var deadline: MonotonicTime
        var id: UInt64
    }

    private var heap: [Entry] = []
    private var actions: [UInt64: @MainActor () -> Void] = [:]
    private var nextID: UInt64 = 0
    /// Whether the heap's top is known live, so `earliest()`, which the loop asks twice a turn,
    /// needs no lookup in `actions` (a hash). Cleared whenever the top may have been cancelled
    /// or removed; an insert keeps it (the new entry is live, and so is the old top).
    private var topIsLive = false

    var isEmpty: Bool { actions.isEmpty }
    var count: Int { actions.count }

    mutating func insert(_ deadline: MonotonicTime, _ action: @escaping @MainActor () -> Void) -> UInt64 {
        nextID += 1
        actions[nextID] = action
        heap.append(Entry(deadline: deadline, id: nextID))
        siftUp(heap.count - 1)
        return nextID
    }

    mutating func cancel(_ id: UInt64) {
        actions[id] = nil
        topIsLive = false
    }

    /// The earliest live deadline; drops cancelled entries from the top.
    mutating func earliest() -> MonotonicTime? {
        if topIsLive, let top = heap.first { return top.deadline }
        while let top = heap.first {
            if actions[top.id] != nil {
                topIsLive = true
                return top.deadline
            }
            popTop()
        }
        return nil
    }

    /// Removes and returns the action of the earliest entry due at `now`, if any.
    mutating func popDue(at now: MonotonicTime) -> (@MainActor () -> Void)? {
        while let top = heap.first, top.deadline <= now {
            popTop()
            if let action = actions.removeValue(forKey: top.id) { return action }
        }
        return nil
    }

    private mutating func popTop() {
        topIsLive = false
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        let lhs = heap[a], rhs = heap[b]
        return lhs.deadline == rhs.deadline ? lhs.id < rhs.id : lhs.deadline < rhs.deadline
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(child, parent) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count && less(left, smallest) { smallest = left }
            if right < heap.count && less(right, smallest) { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
