#if canImport(Glibc)
import Glibc
#endif
import EventVocabulary
import Timebase

/// Makes the device of a kind from its description: the writer its frames go through, and the
/// uinput device behind it (nil for a stand-in that is not in the kernel).
typealias DeviceMaker = (OutputDeviceKind, DeviceDescription) throws(VirtualDeviceError) -> MadeDevice

/// A device a `DeviceMaker` made.
struct MadeDevice {
    /// Where its frames are checked and written.
    let frames: DeviceFrameWriter
    /// The kernel's device, kept for as long as the set holds it (destroyed with it).
    let uinput: UInputDevice?
}

/// Makes a set's devices again when one is lost under it (its descriptor's writes fail with
/// `ENODEV`: the device was destroyed, uinput was reloaded): at once, and while that fails,
/// again when an event for it comes after a delay that doubles from `firstDelay` up to
/// `maximumDelay`. A device made again is new: it starts at rest, nothing held.
final class DeviceRemaker {
    static let firstDelay = TimeSpan.milliseconds(500)
    static let maximumDelay = TimeSpan.seconds(30)

    private let make: DeviceMaker
    /// What each kind was made from, by `OutputDeviceKind.rawValue`.
    private var descriptions: [DeviceDescription?]
    private let clock: () -> MonotonicTime
    /// The kinds lost and not made again yet, by `OutputDeviceKind.rawValue`.
    private var pending: [Retry?]

    /// A lost device's next attempt.
    private struct Retry {
        /// Why its writes failed.
        var errno: Int32
        var due: MonotonicTime
        /// The wait after the next failure.
        var delay: TimeSpan
    }

    init(make: @escaping DeviceMaker, descriptions: [DeviceDescription?], clock: @escaping () -> MonotonicTime) {
        self.make = make
        self.descriptions = descriptions
        self.clock = clock
        pending = Array(repeating: nil, count: descriptions.count)
    }

    /// The set was fitted to `descriptions`, and the devices of the `changed` kinds were made
    /// anew or dropped: none of those waits to be made again any more.
    func adopt(_ descriptions: [DeviceDescription?], changed: [OutputDeviceKind]) {
        self.descriptions = descriptions
        for kind in changed { pending[Int(kind.rawValue)] = nil }
    }

    /// Whether a write that failed with `code` means the device is gone for good: its node
    /// was destroyed (`ENODEV`, `ENXIO`) or its descriptor closed (`EBADF`).
    static func meansDeviceGone(_ code: Int32) -> Bool {
        code == ENODEV || code == ENXIO || code == EBADF
    }

    /// The device's name, as it was made.
    func name(_ kind: OutputDeviceKind) -> String? {
        descriptions[Int(kind.rawValue)]?.identity.name
    }

    /// Why `kind`'s device was lost, while it waits to be made again.
    func lostErrno(_ kind: OutputDeviceKind) -> Int32? {
        pending[Int(kind.rawValue)]?.errno
    }

    /// `kind`'s device was lost (its writes failed with `code`): made again at once, or nil and
    /// tried again after the first delay.
    func remakeLost(_ kind: OutputDeviceKind, errno code: Int32) -> MadeDevice? {
        pending[Int(kind.rawValue)] = Retry(errno: code, due: clock(), delay: Self.firstDelay)
        return remakeIfDue(kind)
    }

    /// Makes `kind`'s lost device if its next attempt is due; nil when it is not due, or when
    /// making it failed (then the delay doubles).
    func remakeIfDue(_ kind: OutputDeviceKind) -> MadeDevice? {
        let index = Int(kind.rawValue)
        guard var retry = pending[index], let description = descriptions[index] else { return nil }
        let now = clock()
        guard now >= retry.due else { return nil }
        do {
            let made = try make(kind, description)
            pending[index] = nil
            return made
        } catch {
            retry.due = now + retry.delay
            retry.delay = TimeSpan(nanoseconds: min(retry.delay.nanoseconds * 2, Self.maximumDelay.nanoseconds))
            pending[index] = retry
            return nil
        }
    }
}
