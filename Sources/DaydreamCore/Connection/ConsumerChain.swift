import DaydreamProtocol
import Timebase

/// A feed's consumers as the packet path walks them: an immutable chain, one link per
/// consumer, in the order they were attached.
///
/// Both fields are constants of an object the walk holds, so the walk borrows each consumer
/// and each next link: no retain or release per consumer (an array's elements, copied out
/// for each call, cost a pair each, and the array one more). Attaching or detaching builds a
/// new chain; a walk under way finishes on the one it started with.
@MainActor
final class ConsumerChain {
    private let consumer: any ControllerConsumer
    private let next: ConsumerChain?

    private init(_ consumer: any ControllerConsumer, then next: ConsumerChain?) {
        self.consumer = consumer
        self.next = next
    }

    /// The chain of `consumers` in their order; nil when there are none.
    static func of(_ consumers: [any ControllerConsumer]) -> ConsumerChain? {
        consumers.reversed().reduce(nil) { next, consumer in ConsumerChain(consumer, then: next) }
    }

    /// Hands `packet` to this link's consumer, then to the rest of the chain (a loop once optimized).
    func deliver(_ packet: DaydreamPacket, at time: MonotonicTime) {
        deliverHere(packet, at: time)
    }

    /// `deliver`, inlined into the feed: the first consumer (the only one, most often) is
    /// called from there, without a call to the chain in between.
    @inline(__always)
    func deliverHere(_ packet: DaydreamPacket, at time: MonotonicTime) {
        consumer.receive(packet, at: time)
        next?.deliver(packet, at: time)
    }
}
