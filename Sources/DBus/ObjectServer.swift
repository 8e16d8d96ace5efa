/// Objects exported on a `BusConnection`, answered as D-Bus clients expect: their interfaces'
/// methods (arguments type-checked first), `org.freedesktop.DBus.Properties` (`Get`, `GetAll`,
/// `Set`, and `PropertiesChanged` through `propertiesChanged`), `Introspectable` for every object
/// and for the nodes above them (so `busctl tree` walks down from `/`), and
/// `org.freedesktop.DBus.ObjectManager` on the paths given to `addObjectManager`, which announce
/// the objects below them with `InterfacesAdded` and `InterfacesRemoved`. (libdbus answers
/// `org.freedesktop.DBus.Peer` itself.)
@MainActor
public final class ObjectServer {
    /// The connection the objects are exported on.
    public let connection: BusConnection
    private var objects: [String: [ExportedInterface]] = [:]
    private var managers: Set<String> = []
    /// Every path registered with the connection: the objects and the nodes above them.
    private var registered: Set<String> = []

    private static let properties = "org.freedesktop.DBus.Properties"
    private static let introspectable = "org.freedesktop.DBus.Introspectable"
    private static let objectManager = "org.freedesktop.DBus.ObjectManager"

    /// A server with no objects yet on `connection`.
    public init(connection: BusConnection) {
        self.connection = connection
    }

    isolated deinit { removeAll() }

    /// Exports (or replaces) the object at `path` with `interfaces`; an object manager above it
    /// announces it. False when `path` is not a valid object path.
    @discardableResult
    public func add(path: String, interfaces: [ExportedInterface]) -> Bool {
        guard ObjectPath.isValid(path) else { return false }
        objects[path] = interfaces
        for node in [path] + Self.ancestors(of: path) where !registered.contains(node) {
            registered.insert(node)
            connection.export(path: node) { [weak self] message in
                guard let self else { return .failure(.unknownMethod("the object is gone")) }
                return handle(message, at: node)
            }
        }
        if let manager = manager(above: path) {
            let added = Message.signal(path: manager, interface: Self.objectManager, name: "InterfacesAdded",
                                       arguments: [.objectPath(path), Self.interfacesAndProperties(interfaces)])
            if let added { connection.send(added) }
        }
        return true
    }

    /// Stops exporting the object at `path`; an object manager above it announces that.
    public func remove(path: String) {
        guard let interfaces = objects.removeValue(forKey: path) else { return }
        if let manager = manager(above: path) {
            let removed = Message.signal(path: manager, interface: Self.objectManager, name: "InterfacesRemoved",
                                         arguments: [.objectPath(path), .strings(interfaces.map(\.name))])
            if let removed { connection.send(removed) }
        }
        pruneRegistrations()
    }

    /// Stops exporting everything (nothing is announced).
    public func removeAll() {
        objects.removeAll()
        managers.removeAll()
        pruneRegistrations()
    }

    /// Makes the object at `path` an `org.freedesktop.DBus.ObjectManager` for the objects below it.
    public func addObjectManager(at path: String) {
        managers.insert(path)
    }

    /// Sends `PropertiesChanged` for `names` of `interface` at `path`, with their current values
    /// (those that do not announce changes are left out).
    public func propertiesChanged(path: String, interface: String, names: [String]) {
        guard let exported = objects[path]?.first(where: { $0.name == interface }) else { return }
        var changed: [String: DBusValue] = [:]
        for name in names {
            if let property = exported.property(name), property.emitsChangedSignal { changed[name] = property.get() }
        }
        guard !changed.isEmpty else { return }
        let signal = Message.signal(path: path, interface: Self.properties, name: "PropertiesChanged",
                                    arguments: [.string(interface), .properties(changed), .strings([])])
        if let signal { connection.send(signal) }
    }

    // MARK: Answering calls

    private func handle(_ message: Message, at path: String) -> Result<[DBusValue], DBusError> {
        let member = message.member ?? ""
        let interfaces = objects[path] ?? []
        switch message.interface {
        case Self.introspectable where member == "Introspect":
            return checked(message, "") { _ in
                .success([.string(IntrospectionXML.document(
                    interfaces: interfaces, objectManager: managers.contains(path), children: children(of: path)))])
            }
        case Self.properties:
            return handleProperties(message, member: member, interfaces: interfaces)
        case Self.objectManager where managers.contains(path) && member == "GetManagedObjects":
            return checked(message, "") { _ in .success([managedObjects(below: path)]) }
        case let name?:
            guard let interface = interfaces.first(where: { $0.name == name }) else {
                return .failure(.unknownInterface("\(path) has no interface \(name)"))
            }
            guard let method = interface.method(member) else {
                return .failure(.unknownMethod("\(name) has no method \(member); methods: \(Self.list(interface.methods.map(\.name)))"))
            }
            return checked(message, method.inputSignature) { method.handler($0) }
        case nil:
            // A call without an interface goes to the first interface that has the method.
            guard let method = interfaces.lazy.compactMap({ $0.method(member) }).first else {
                return .failure(.unknownMethod("\(path) has no method \(member)"))
            }
            return checked(message, method.inputSignature) { method.handler($0) }
        }
    }

    /// Runs `body` with the arguments when their types are `signature`; else InvalidArgs.
    private func checked(
        _ message: Message, _ signature: String, _ body: ([DBusValue]) -> Result<[DBusValue], DBusError>
    ) -> Result<[DBusValue], DBusError> {
        let received = message.signature
        guard received == signature else {
            return .failure(.invalidArguments("\(message.member ?? "the method") takes (\(signature)), not (\(received))"))
        }
        return body(message.arguments())
    }

    private func handleProperties(_ message: Message, member: String, interfaces: [ExportedInterface]) -> Result<[DBusValue], DBusError> {
        func lookUp(_ name: String) -> Result<ExportedInterface, DBusError> {
            guard let interface = interfaces.first(where: { $0.name == name }) else {
                return .failure(.unknownInterface("no interface \(name) here; interfaces: \(Self.list(interfaces.map(\.name)))"))
            }
            return .success(interface)
        }
        func property(_ interface: ExportedInterface, _ name: String) -> Result<ExportedProperty, DBusError> {
            guard let property = interface.property(name) else {
                return .failure(.unknownProperty(
                    "\(interface.name) has no property \(name); properties: \(Self.list(interface.properties.map(\.name)))"))
            }
            return .success(property)
        }
        switch member {
        case "Get":
            return checked(message, "ss") { arguments in
                lookUp(arguments[0].string ?? "").flatMap { property($0, arguments[1].string ?? "") }.map { [.variant($0.get())] }
            }
        case "GetAll":
            return checked(message, "s") { arguments in
                lookUp(arguments[0].string ?? "").map { [Self.values(of: $0)] }
            }
        case "Set":
            return checked(message, "ssv") { arguments in
                lookUp(arguments[0].string ?? "").flatMap { property($0, arguments[1].string ?? "") }.flatMap { property in
                    guard let set = property.set else {
                        return .failure(.propertyReadOnly("\(property.name) is read-only"))
                    }
                    let value = arguments[2].unwrapped
                    guard value.signature == property.signature else {
                        return .failure(.invalidArguments("\(property.name) is of type \(property.signature), not \(value.signature)"))
                    }
                    return set(value).map { [] }
                }
            }
        default:
            return .failure(.unknownMethod("\(Self.properties) has no method \(member); methods: Get, GetAll, Set"))
        }
    }

    // MARK: Tree

    /// `/a/b/c` -> `/a/b`, `/a`, `/`.
    private static func ancestors(of path: String) -> [String] {
        var result: [String] = []
        var current = Substring(path)
        while current != "/", let slash = current.lastIndex(of: "/") {
            current = slash == current.startIndex ? "/" : current[..<slash]
            result.append(String(current))
        }
        return result
    }

    /// The names of the nodes right below `path` that lead to an object.
    private func children(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        var names: Set<String> = []
        for object in objects.keys where object.hasPrefix(prefix) {
            if let first = object.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(first)) }
        }
        return names.sorted()
    }

    /// The nearest object manager strictly above `path`.
    private func manager(above path: String) -> String? {
        Self.ancestors(of: path).first { managers.contains($0) }
    }

    private func managedObjects(below path: String) -> DBusValue {
        let entries = objects.keys.sorted().filter { manager(above: $0) == path }.compactMap { object in
            objects[object].map { (DBusValue.objectPath(object), Self.interfacesAndProperties($0)) }
        }
        return .dictionary(key: "o", value: "a{sa{sv}}", entries)
    }

    /// Unregisters the paths that no longer lead to an object.
    private func pruneRegistrations() {
        let needed = Set(objects.keys.flatMap { [$0] + Self.ancestors(of: $0) })
        for path in registered.subtracting(needed) { connection.unexport(path: path) }
        registered.formIntersection(needed)
    }

    private static func interfacesAndProperties(_ interfaces: [ExportedInterface]) -> DBusValue {
        .dictionary(key: "s", value: "a{sv}", interfaces.map { (.string($0.name), values(of: $0)) })
    }

    private static func values(of interface: ExportedInterface) -> DBusValue {
        var values: [String: DBusValue] = [:]
        for property in interface.properties { values[property.name] = property.get() }
        return .properties(values)
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
