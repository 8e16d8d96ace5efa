import EventVocabulary

/// Whether the device made for a kind still fits a new config: the device is its description
/// (identity, codes, axis ranges, properties), so it fits exactly when the new config describes
/// it the same way. A game keeps a device that fits, and whatever is held on it.
public enum DeviceFit: Sendable, Equatable {
    /// Described the same: the device stays as it is.
    case kept
    /// Described differently: the device is released, then replaced by a new one.
    case remade
    /// Needed now and not before: a new device.
    case added
    /// No longer needed: the device is released, then goes.
    case dropped

    /// The fit of the device made from `old` (nil: none was made) for `new` (nil: none is
    /// needed); nil when there is neither.
    public init?(old: DeviceDescription?, new: DeviceDescription?) {
        switch (old, new) {
        case (nil, nil): return nil
        case (nil, _): self = .added
        case (_, nil): self = .dropped
        case (let old?, let new?): self = old == new ? .kept : .remade
        }
    }
}

/// What fitting a set's devices to a new config does to each kind, in `OutputDeviceKind` order.
public struct DeviceRefit: Sendable, Equatable {
    /// Each kind that has a device before or after, with its fit.
    public var fits: [OutputDeviceKind: DeviceFit]

    /// The fits from the old descriptions to the new ones, both indexed by
    /// `OutputDeviceKind.rawValue` (nil: no device of that kind).
    public init(old: [DeviceDescription?], new: [DeviceDescription?]) {
        var fits: [OutputDeviceKind: DeviceFit] = [:]
        for kind in OutputDeviceKind.allCases {
            let index = Int(kind.rawValue)
            let before = index < old.count ? old[index] : nil
            let after = index < new.count ? new[index] : nil
            fits[kind] = DeviceFit(old: before, new: after)
        }
        self.fits = fits
    }

    /// The kinds whose fit is `fit`, in `OutputDeviceKind` order.
    public func kinds(_ fit: DeviceFit) -> [OutputDeviceKind] {
        OutputDeviceKind.allCases.filter { fits[$0] == fit }
    }

    /// True when every device stays as it is.
    public var keepsEveryDevice: Bool { fits.values.allSatisfy { $0 == .kept } }

    /// One line per device that changes, for the log: `keyboard: made again for the new config`.
    public var lines: [String] {
        OutputDeviceKind.allCases.compactMap { kind in
            switch fits[kind] {
            case .remade: "\(kind): made again for the new config (its codes or identity changed)"
            case .added: "\(kind): added for the new config"
            case .dropped: "\(kind): removed, the new config needs none"
            case .kept, nil: nil
            }
        }
    }
}
