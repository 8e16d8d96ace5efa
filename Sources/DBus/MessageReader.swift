import CDBus
import Descriptors

/// Turns the arguments of a message into `DBusValue`s (`dbus_message_iter_*`).
enum MessageReader {
    static func arguments(of message: OpaquePointer) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        return readAll(&iterator)
    }

    private static func readAll(_ iterator: inout DBusMessageIter) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != TypeCode.invalid {
            if let value = read(&iterator) { values.append(value) }
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    private static func basic<T: BitwiseCopyable>(_ iterator: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        dbus_message_iter_get_basic(&iterator, &value)
        return value
    }

    private static func text(_ iterator: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iterator, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func signature(_ iterator: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iterator) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }

    private static func read(_ iterator: inout DBusMessageIter) -> DBusValue? {
        let type = dbus_message_iter_get_arg_type(&iterator)
        switch type {
        case TypeCode.byte: return .byte(basic(&iterator, UInt8(0)))
        case TypeCode.boolean: return .boolean(basic(&iterator, dbus_bool_t(0)) != 0)
        case TypeCode.int16: return .int16(basic(&iterator, Int16(0)))
        case TypeCode.uint16: return .uint16(basic(&iterator, UInt16(0)))
        case TypeCode.int32: return .int32(basic(&iterator, Int32(0)))
        case TypeCode.uint32: return .uint32(basic(&iterator, UInt32(0)))
        case TypeCode.int64: return .int64(basic(&iterator, Int64(0)))
        case TypeCode.uint64: return .uint64(basic(&iterator, UInt64(0)))
        case TypeCode.double: return .double(basic(&iterator, Double(0)))
        case TypeCode.string: return .string(text(&iterator))
        case TypeCode.objectPath: return .objectPath(text(&iterator))
        case TypeCode.signature: return .signature(text(&iterator))
        case TypeCode.unixFD:
            // libdbus hands out a duplicate that the reader owns.
            return .unixFD(UnixFileDescriptor(owning: FileDescriptor(owning: basic(&iterator, Int32(-1)))))
        case TypeCode.variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return read(&inner).map { .variant($0) }
        case TypeCode.structure:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .structure(readAll(&inner))
        case TypeCode.array:
            return readArray(&iterator)
        default:
            return nil
        }
    }

    private static func readArray(_ iterator: inout DBusMessageIter) -> DBusValue {
        let element = dbus_message_iter_get_element_type(&iterator)
        let fullSignature = signature(&iterator)
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &inner)
        if element == TypeCode.byte {
            var pointer: UnsafeRawPointer?
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&inner, &pointer, &count)
            guard let pointer, count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: Int(count))))
        }
        let elementSignature = String(fullSignature.dropFirst())
        if element == TypeCode.dictionaryEntry {
            // "{KV}": the key is one basic type code, the value the rest.
            let body = elementSignature.dropFirst().dropLast()
            let key = String(body.prefix(1)), value = String(body.dropFirst())
            var entries: [(DBusValue, DBusValue)] = []
            while dbus_message_iter_get_arg_type(&inner) == TypeCode.dictionaryEntry {
                var entry = DBusMessageIter()
                dbus_message_iter_recurse(&inner, &entry)
                let pair = readAll(&entry)
                if pair.count == 2 { entries.append((pair[0], pair[1])) }
                dbus_message_iter_next(&inner)
            }
            return .dictionary(key: key, value: value, entries)
        }
        return .array(element: elementSignature, readAll(&inner))
    }
}
