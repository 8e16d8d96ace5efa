import DBus

/// BlueZ's object tree as `GetManagedObjects` returned it, kept current by
/// `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged`:
/// path -> interface -> property -> value (variants unwrapped).
public struct ObjectCache {
    /// One interface's properties.
    public typealias Properties = [String: DBusValue]

    /// Every object, by path.
    public private(set) var objects: [String: [String: Properties]] = [:]

    /// An empty cache.
    public init() {}

    /// Replaces everything with a `GetManagedObjects` reply (`a{oa{sa{sv}}}`).
    public mutating func load(managedObjects value: DBusValue) {
        objects = [:]
        for (path, interfaces) in value.stringKeyed ?? [:] {
            objects[path] = ObjectCache.interfaces(interfaces)
        }
    }

    /// Applies `InterfacesAdded(o, a{sa{sv}})`; returns the interface names added.
    @discardableResult
    public mutating func interfacesAdded(path: String, interfaces value: DBusValue) -> [String] {
        let added = ObjectCache.interfaces(value)
        for (interface, properties) in added {
            objects[path, default: [:]][interface, default: [:]].merge(properties) { _, new in new }
        }
        return added.keys.sorted()
    }

    /// Applies `InterfacesRemoved(o, as)`; the object goes when no interface is left.
    public mutating func interfacesRemoved(path: String, interfaces: [String]) {
        for interface in interfaces { objects[path]?[interface] = nil }
        if objects[path]?.isEmpty ?? false { objects[path] = nil }
    }

    /// Applies `PropertiesChanged(s, a{sv}, as)` to an interface the cache knows.
    /// Returns the names that changed, or nil when the object or interface is unknown.
    @discardableResult
    public mutating func propertiesChanged(
        path: String, interface: String, changed: DBusValue, invalidated: [String]
    ) -> [String]? {
        guard objects[path]?[interface] != nil else { return nil }
        let values = changed.propertyDictionary ?? [:]
        objects[path]?[interface]?.merge(values) { _, new in new }
        for name in invalidated { objects[path]?[interface]?[name] = nil }
        return values.keys.sorted() + invalidated
    }

    /// Forgets everything (bluetoothd went away).
    public mutating func removeAll() { objects = [:] }

    /// One interface's properties on one object.
    public func properties(_ path: String, _ interface: String) -> Properties? {
        objects[path]?[interface]
    }

    /// Paths of the objects that have `interface`, sorted.
    public func paths(with interface: String) -> [String] {
        objects.filter { $0.value[interface] != nil }.keys.sorted()
    }

    private static func interfaces(_ value: DBusValue) -> [String: Properties] {
        (value.stringKeyed ?? [:]).mapValues { $0.propertyDictionary ?? [:] }
    }
}
