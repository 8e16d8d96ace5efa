import CDBus

/// Appends `DBusValue`s to a message (`dbus_message_iter_append_*`). Strings
/// that libdbus would reject (invalid object paths, signatures) are checked
/// first, because libdbus aborts on them.
enum MessageWriter {
    /// Appends `values`; false when a value is not valid D-Bus or memory ran out.
    static func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for value in values {
            guard append(value, to: &iterator) else { return false }
        }
        return true
    }

    private static func basic<T: BitwiseCopyable>(_ iterator: inout DBusMessageIter, _ type: Int32, _ value: T) -> Bool {
        var copy = value
        return dbus_message_iter_append_basic(&iterator, type, &copy) != 0
    }

    private static func text(_ iterator: inout DBusMessageIter, _ type: Int32, _ value: String) -> Bool {
        value.withCString { pointer in
            var pointer: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, type, &pointer) != 0
        }
    }

    private static func container(
        _ iterator: inout DBusMessageIter, _ type: Int32, _ signature: String?,
        _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iterator, type, $0, &inner) != 0 }
        } else {
            opened = dbus_message_iter_open_container(&iterator, type, nil, &inner) != 0
        }
        guard opened else { return false }
        guard body(&inner) else {
            dbus_message_iter_abandon_container(&iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }

    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(let v): return basic(&iterator, TypeCode.byte, v)
        case .boolean(let v): return basic(&iterator, TypeCode.boolean, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): return basic(&iterator, TypeCode.int16, v)
        case .uint16(let v): return basic(&iterator, TypeCode.uint16, v)
        case .int32(let v): return basic(&iterator, TypeCode.int32, v)
        case .uint32(let v): return basic(&iterator, TypeCode.uint32, v)
        case .int64(let v): return basic(&iterator, TypeCode.int64, v)
        case .uint64(let v): return basic(&iterator, TypeCode.uint64, v)
        case .double(let v): return basic(&iterator, TypeCode.double, v)
        case .string(let v): return !v.utf8.contains(0) && text(&iterator, TypeCode.string, v)
        case .objectPath(let v): return ObjectPath.isValid(v) && text(&iterator, TypeCode.objectPath, v)
        case .signature(let v): return Signature.isValid(v) && text(&iterator, TypeCode.signature, v)
        case .unixFD(let v): return v.rawValue >= 0 && basic(&iterator, TypeCode.unixFD, v.rawValue)
        case .bytes(let v):
            return container(&iterator, TypeCode.array, "y") { inner in
                v.isEmpty || v.withUnsafeBufferPointer { buffer in
                    var pointer = buffer.baseAddress
                    return dbus_message_iter_append_fixed_array(&inner, TypeCode.byte, &pointer, Int32(buffer.count)) != 0
                }
            }
        case .array(let element, let values):
            guard Signature.isValid(element), values.allSatisfy({ $0.signature == element }) else { return false }
            return container(&iterator, TypeCode.array, element) { inner in
                values.allSatisfy { append($0, to: &inner) }
            }
        case .dictionary(let key, let valueType, let entries):
            let entrySignature = "{" + key + valueType + "}"
            guard Signature.isValid("a" + entrySignature),
                  entries.allSatisfy({ $0.0.signature == key && $0.1.signature == valueType }) else { return false }
            return container(&iterator, TypeCode.array, entrySignature) { inner in
                entries.allSatisfy { entry in
                    container(&inner, TypeCode.dictionaryEntry, nil) { pair in
                        append(entry.0, to: &pair) && append(entry.1, to: &pair)
                    }
                }
            }
        case .structure(let members):
            return container(&iterator, TypeCode.structure, nil) { inner in
                members.allSatisfy { append($0, to: &inner) }
            }
        case .variant(let inner):
            let signature = inner.signature
            guard Signature.isValid(signature) else { return false }
            return container(&iterator, TypeCode.variant, signature) { append(inner, to: &$0) }
        }
    }
}

/// D-Bus object path rules: `/`, or `/` followed by `/`-separated non-empty
/// elements of `[A-Za-z0-9_]`.
public enum ObjectPath {
    /// Whether `path` is a valid object path.
    public static func isValid(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        if path == "/" { return true }
        guard !path.hasSuffix("/") else { return false }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy { element in
            !element.isEmpty && element.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            }
        }
    }
}

/// Signature validation through libdbus's own checker (which does not abort).
enum Signature {
    static func isValid(_ signature: String) -> Bool {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        let valid = dbus_signature_validate(signature, &error) != 0
        if dbus_error_is_set(&error) != 0 { dbus_error_free(&error) }
        return valid
    }
}
