#if canImport(Glibc)
import Glibc
#endif
import CEvdev
import EventVocabulary

/// A libevdev device description, owned: built from a `DeviceDescription`
/// (`libevdev_new` plus the enabled codes) and freed in `deinit`.
///
/// It is what `UInputDevice` hands to `libevdev_uinput_create_from_device`,
/// and it can be queried without `/dev/uinput`, which is how tests check it.
public final class EvdevDevice {
    /// The libevdev handle; valid for the object's lifetime.
    let handle: OpaquePointer

    /// Builds the libevdev description: name, ids, properties, and exactly the codes of
    /// `description`, each axis with its parameters and resting value.
    public init(_ description: DeviceDescription) throws(VirtualDeviceError) {
        try description.validate()
        guard let handle = libevdev_new() else {
            throw .creationFailed(device: description.identity.name, errno: ENOMEM)
        }
        self.handle = handle
        let identity = description.identity
        libevdev_set_name(handle, identity.name)
        libevdev_set_id_bustype(handle, Int32(identity.bus))
        libevdev_set_id_vendor(handle, Int32(identity.vendor))
        libevdev_set_id_product(handle, Int32(identity.product))
        libevdev_set_id_version(handle, Int32(identity.version))
        let capabilities = description.capabilities
        for key in capabilities.keys {
            try enable(type: EventType.key, code: key, name: identity.name)
        }
        for axis in capabilities.relativeAxes {
            try enable(type: EventType.rel, code: axis, name: identity.name)
        }
        for code in capabilities.miscCodes {
            try enable(type: EventType.msc, code: code, name: identity.name)
        }
        for property in description.properties where libevdev_enable_property(handle, UInt32(property)) != 0 {
            throw VirtualDeviceError.invalidDescription(identity.name, "libevdev refused input property \(property)")
        }
        for axis in capabilities.absoluteAxes {
            var info = input_absinfo(value: axis.info.value, minimum: axis.info.minimum, maximum: axis.info.maximum,
                                     fuzz: axis.info.fuzz, flat: axis.info.flat, resolution: axis.info.resolution)
            let result = libevdev_enable_event_code(handle, UInt32(EventType.abs), UInt32(axis.code), &info)
            if result != 0 { throw Self.refused(type: EventType.abs, code: axis.code, name: identity.name) }
        }
    }

    /// Wraps a handle made elsewhere (e.g. `libevdev_new_from_fd`); frees it in `deinit`.
    public init(adopting handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        libevdev_free(handle)
    }

    /// The device name.
    public var name: String {
        guard let cName = libevdev_get_name(handle) else { return "" }
        return String(cString: cName)
    }

    /// The name and ids as libevdev holds them.
    public var identity: DeviceIdentity {
        DeviceIdentity(name: name,
                       bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
                       vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
                       product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
                       version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)))
    }

    /// Whether the device has this event type.
    public func has(type: UInt16) -> Bool {
        libevdev_has_event_type(handle, UInt32(type)) == 1
    }

    /// Whether the device has this code of this type.
    public func has(type: UInt16, code: UInt16) -> Bool {
        libevdev_has_event_code(handle, UInt32(type), UInt32(code)) == 1
    }

    /// Every code of `type` the device has, in ascending order.
    public func codes(type: UInt16) -> [UInt16] {
        let maximum = libevdev_event_type_get_max(UInt32(type))
        guard maximum >= 0 else { return [] }
        return (0...UInt16(maximum)).filter { has(type: type, code: $0) }
    }

    /// The axis as libevdev describes it (`value` is its current value); nil when absent.
    public func absInfo(_ code: UInt16) -> AbsInfo? {
        guard has(type: EventType.abs, code: code),
              let info = libevdev_get_abs_info(handle, UInt32(code))?.pointee else { return nil }
        return AbsInfo(minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat,
                       resolution: info.resolution, value: info.value)
    }

    /// Every code the device has, as capabilities (axes with their current values).
    public var capabilities: DeviceCapabilities {
        DeviceCapabilities(
            keys: codes(type: EventType.key),
            relativeAxes: codes(type: EventType.rel),
            absoluteAxes: codes(type: EventType.abs).compactMap { code in
                absInfo(code).map { AbsoluteAxis(code: code, info: $0) }
            },
            miscCodes: codes(type: EventType.msc))
    }

    /// The `INPUT_PROP_*` values the device has, in ascending order.
    public var properties: [UInt16] {
        (0...InputProperty.max).filter { libevdev_has_property(handle, UInt32($0)) == 1 }
    }

    /// Whether the device advertises any force-feedback effect.
    public var hasForceFeedback: Bool { has(type: EventType.ff) }

    private func enable(type: UInt16, code: UInt16, name: String) throws(VirtualDeviceError) {
        if libevdev_enable_event_code(handle, UInt32(type), UInt32(code), nil) != 0 {
            throw Self.refused(type: type, code: code, name: name)
        }
    }

    private static func refused(type: UInt16, code: UInt16, name: String) -> VirtualDeviceError {
        .invalidDescription(name, "libevdev refused \(EventCodeNames.name(type: type, code: code))")
    }
}
