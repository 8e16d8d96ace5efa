/// The introspection document (`org.freedesktop.DBus.Introspectable.Introspect`) of one node:
/// its interfaces, the standard ones it answers, and its children's names.
@MainActor
enum IntrospectionXML {
    static let doctype = "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
        + " \"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"

    /// The document for a node with `interfaces` (none for a node that only has children),
    /// `objectManager` when it answers `GetManagedObjects`, and `children` (names, not paths).
    static func document(interfaces: [ExportedInterface], objectManager: Bool, children: [String]) -> String {
        var text = doctype + "<node>\n"
        text += standardInterfaces
        if objectManager { text += objectManagerInterface }
        for interface in interfaces { text += xml(interface) }
        for child in children { text += " <node name=\"\(escaped(child))\"/>\n" }
        return text + "</node>\n"
    }

    private static func xml(_ exported: ExportedInterface) -> String {
        let methods = exported.methods.map { method($0.name, in: $0.arguments, out: $0.results) }
        let properties = exported.properties.map { property in
            let access = property.set == nil ? "read" : "readwrite"
            let opening = "  <property name=\"\(escaped(property.name))\" type=\"\(escaped(property.signature))\" access=\"\(access)\""
            if property.emitsChangedSignal { return opening + "/>\n" }
            return opening + ">\n"
                + "   <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"false\"/>\n"
                + "  </property>\n"
        }
        return interface(exported.name, methods + properties)
    }

    /// An `interface` element holding `members` (each already XML).
    private static func interface(_ name: String, _ members: [String]) -> String {
        " <interface name=\"\(escaped(name))\">\n" + members.joined() + " </interface>\n"
    }

    /// A `method` element: the arguments `inputs` take in and `outputs` give back.
    private static func method(_ name: String, in inputs: [ExportedArgument] = [], out outputs: [ExportedArgument] = []) -> String {
        member("method", name, inputs.map { argument($0, direction: "in") } + outputs.map { argument($0, direction: "out") })
    }

    /// A `signal` element with the arguments it carries.
    private static func signal(_ name: String, _ arguments: [ExportedArgument]) -> String {
        member("signal", name, arguments.map { argument($0, direction: nil) })
    }

    /// A `method` or `signal` element around `arguments` (each already XML); self-closing without any.
    private static func member(_ element: String, _ name: String, _ arguments: [String]) -> String {
        if arguments.isEmpty { return "  <\(element) name=\"\(escaped(name))\"/>\n" }
        return "  <\(element) name=\"\(escaped(name))\">\n" + arguments.joined() + "  </\(element)>\n"
    }

    /// An `arg` element; a signal's has no direction.
    private static func argument(_ argument: ExportedArgument, direction: String?) -> String {
        let direction = direction.map { " direction=\"\($0)\"" } ?? ""
        return "   <arg name=\"\(escaped(argument.name))\" type=\"\(escaped(argument.signature))\"\(direction)/>\n"
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    /// `Introspectable`, `Peer` and `Properties`, which every node answers.
    private static let standardInterfaces =
        interface("org.freedesktop.DBus.Introspectable", [
            method("Introspect", out: [ExportedArgument("xml_data", "s")]),
        ])
        + interface("org.freedesktop.DBus.Peer", [
            method("Ping"),
            method("GetMachineId", out: [ExportedArgument("machine_uuid", "s")]),
        ])
        + interface("org.freedesktop.DBus.Properties", [
            method("Get", in: [ExportedArgument("interface_name", "s"), ExportedArgument("property_name", "s")],
                   out: [ExportedArgument("value", "v")]),
            method("GetAll", in: [ExportedArgument("interface_name", "s")], out: [ExportedArgument("props", "a{sv}")]),
            method("Set", in: [ExportedArgument("interface_name", "s"), ExportedArgument("property_name", "s"),
                               ExportedArgument("value", "v")]),
            signal("PropertiesChanged", [
                ExportedArgument("interface_name", "s"), ExportedArgument("changed_properties", "a{sv}"),
                ExportedArgument("invalidated_properties", "as"),
            ]),
        ])

    /// `ObjectManager`, for a node that answers `GetManagedObjects`.
    private static let objectManagerInterface = interface("org.freedesktop.DBus.ObjectManager", [
        method("GetManagedObjects", out: [ExportedArgument("object_paths_interfaces_and_properties", "a{oa{sa{sv}}}")]),
        signal("InterfacesAdded", [ExportedArgument("object_path", "o"), ExportedArgument("interfaces_and_properties", "a{sa{sv}}")]),
        signal("InterfacesRemoved", [ExportedArgument("object_path", "o"), ExportedArgument("interfaces", "as")]),
    ])
}
