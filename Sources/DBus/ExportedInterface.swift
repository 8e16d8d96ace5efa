/// One interface of an object an `ObjectServer` exports: its methods and properties, with the
/// code that answers them (run on the loop). The server checks the caller's argument types
/// against the declared ones before a handler runs.
@MainActor
public struct ExportedInterface {
    /// The interface name, e.g. `org.daydream_bridge.Bridge1`.
    public let name: String
    /// The methods, in introspection order.
    public var methods: [ExportedMethod]
    /// The properties, in introspection order.
    public var properties: [ExportedProperty]

    /// An interface with `methods` and `properties`.
    public init(name: String, methods: [ExportedMethod] = [], properties: [ExportedProperty] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
    }

    /// The property called `name`.
    public func property(_ name: String) -> ExportedProperty? { properties.first { $0.name == name } }

    /// The method called `name`.
    public func method(_ name: String) -> ExportedMethod? { methods.first { $0.name == name } }
}

/// A named argument of a method, for the caller's type check and for introspection.
public struct ExportedArgument: Sendable {
    /// The argument's name in the introspection data.
    public let name: String
    /// Its single complete type, e.g. `s`.
    public let signature: String

    /// An argument called `name` of type `signature`.
    public init(_ name: String, _ signature: String) {
        self.name = name
        self.signature = signature
    }
}

/// A method: its arguments in and out, and the handler that answers a call whose arguments have
/// the declared types (the result's values are the reply's, or the error is sent back).
@MainActor
public struct ExportedMethod {
    /// The method name.
    public let name: String
    /// What it takes.
    public let arguments: [ExportedArgument]
    /// What it returns.
    public let results: [ExportedArgument]
    /// Answers a call; its arguments match `arguments`.
    public let handler: @MainActor ([DBusValue]) -> Result<[DBusValue], DBusError>

    /// A method called `name`.
    public init(
        _ name: String, arguments: [ExportedArgument] = [], results: [ExportedArgument] = [],
        handler: @escaping @MainActor ([DBusValue]) -> Result<[DBusValue], DBusError>
    ) {
        self.name = name
        self.arguments = arguments
        self.results = results
        self.handler = handler
    }

    /// The signature a call must have.
    public var inputSignature: String { arguments.map(\.signature).joined() }
}

/// A property: read on demand with `get`; writable when it has a `set`. One that changes too often
/// to announce (a packet count) says so with `emitsChangedSignal: false`, which introspection
/// shows (`org.freedesktop.DBus.Property.EmitsChangedSignal`), so clients read it when they need it.
@MainActor
public struct ExportedProperty {
    /// The property name.
    public let name: String
    /// Its single complete type.
    public let signature: String
    /// Whether a change is announced with `PropertiesChanged`.
    public let emitsChangedSignal: Bool
    /// Reads the current value (of type `signature`).
    public let get: @MainActor () -> DBusValue
    /// Writes a value of type `signature`; nil for a read-only property.
    public let set: (@MainActor (DBusValue) -> Result<Void, DBusError>)?

    /// A property called `name` of type `signature`.
    public init(
        _ name: String, _ signature: String, emitsChangedSignal: Bool = true,
        get: @escaping @MainActor () -> DBusValue, set: (@MainActor (DBusValue) -> Result<Void, DBusError>)? = nil
    ) {
        self.name = name
        self.signature = signature
        self.emitsChangedSignal = emitsChangedSignal
        self.get = get
        self.set = set
    }
}
