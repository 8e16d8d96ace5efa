import CDBus

/// One D-Bus message (`DBusMessage *`), released in `deinit`.
public final class Message {
    let raw: OpaquePointer

    /// The kind of message.
    public enum Kind: Int32, Sendable {
        case invalid = 0, methodCall = 1, methodReturn = 2, error = 3, signal = 4
    }

    /// Takes over a reference the caller owns.
    init(owning raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference to a message libdbus lends (in a filter).
    init(retaining raw: OpaquePointer) {
        self.raw = raw
        dbus_message_ref(raw)
    }

    deinit { dbus_message_unref(raw) }

    /// A method call; nil when a name is invalid or memory ran out.
    public static func methodCall(
        destination: String?, path: String, interface: String?, method: String, arguments: [DBusValue] = []
    ) -> Message? {
        guard ObjectPath.isValid(path),
              let raw = dbus_message_new_method_call(destination, path, interface, method) else { return nil }
        let message = Message(owning: raw)
        guard MessageWriter.append(arguments, to: raw) else { return nil }
        return message
    }

    /// A signal; nil when a name is invalid.
    public static func signal(path: String, interface: String, name: String, arguments: [DBusValue] = []) -> Message? {
        guard ObjectPath.isValid(path), let raw = dbus_message_new_signal(path, interface, name) else { return nil }
        let message = Message(owning: raw)
        guard MessageWriter.append(arguments, to: raw) else { return nil }
        return message
    }

    /// A method return for this call carrying `arguments`.
    public func makeReturn(_ arguments: [DBusValue] = []) -> Message? {
        guard let reply = dbus_message_new_method_return(raw) else { return nil }
        let message = Message(owning: reply)
        guard MessageWriter.append(arguments, to: reply) else { return nil }
        return message
    }

    /// An error reply for this call.
    public func makeError(_ error: DBusError) -> Message? {
        dbus_message_new_error(raw, error.name, error.message).map { Message(owning: $0) }
    }

    /// Call, return, error or signal (`dbus_message_get_type`).
    public var kind: Kind { Kind(rawValue: dbus_message_get_type(raw)) ?? .invalid }
    /// The object path.
    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    /// The interface.
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    /// The method or signal name.
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    /// The sender's unique name.
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    /// The destination bus name.
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    /// The error name of an error message.
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    /// The arguments' type signature.
    public var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    /// Whether the caller asked for no reply.
    public var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

    /// Whether this message is `interface.member`.
    public func isSignal(_ interface: String, _ member: String) -> Bool {
        dbus_message_is_signal(raw, interface, member) != 0
    }

    /// The arguments, parsed. File descriptors come out owned by the values.
    public func arguments() -> [DBusValue] { MessageReader.arguments(of: raw) }

    /// The error an error message carries, nil for other messages.
    public var error: DBusError? {
        guard kind == .error else { return nil }
        return DBusError(name: errorName ?? "org.freedesktop.DBus.Error.Failed", message: arguments().first?.string ?? "")
    }

    /// Appends more arguments; false when one is not valid D-Bus.
    @discardableResult
    public func append(_ arguments: [DBusValue]) -> Bool { MessageWriter.append(arguments, to: raw) }
}
