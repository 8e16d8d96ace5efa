import DaydreamProtocol
import Timebase

/// The time between two samples of a gesture, from the controller's own clock where it is plausible.
///
/// Bluetooth delivers packets bunched: a few in one connection event, 0.02-1.3 ms apart, after
/// a gap of a connection interval or more. Arrival times then jitter by tens of milliseconds
/// while the controller's stamps (the packet's time field, milliseconds wrapping at 512) run
/// evenly (the Gear VR's three samples a packet arrive at once, stamped in microseconds). The
/// stamps' difference (`ControllerStamp`, on the family's clock) is used unless it is implausible, and then the arrival
/// times' is:
/// - a sample without a stamp (a snapshot not from a packet);
/// - the same stamp twice (a clock that does not run);
/// - a difference further than `plausibleSkew` from the arrival times' (the stamp wrapped
///   during a gap of half a second or more, or the controller's clock restarted).
enum SampleInterval {
    /// The most the stamps' interval may differ from the arrival times' and still be believed.
    /// A packet held up this much longer than the one before it is a long Bluetooth stall;
    /// beyond it a wrapped stamp (off by 512 ms) could no longer be told from a late packet.
    static let plausibleSkew = TimeSpan.milliseconds(200)

    /// The interval from the sample stamped `lastStamp` to the one stamped `stamp`, which
    /// arrived `arrival` apart. Inlined: a few comparisons, once a packet for each gesture that times its samples.
    @inline(__always)
    static func between(_ lastStamp: ControllerStamp?, _ stamp: ControllerStamp?, arrival: TimeSpan) -> TimeSpan {
        guard let lastStamp, let stamp, let microseconds = stamp.microseconds(since: lastStamp), microseconds > 0 else {
            return arrival
        }
        let stamped = TimeSpan(nanoseconds: microseconds &* 1000)
        guard abs(stamped.nanoseconds - arrival.nanoseconds) <= plausibleSkew.nanoseconds else { return arrival }
        return stamped
    }
}
