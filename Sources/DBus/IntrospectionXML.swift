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

    private static func xml(_ interface: ExportedInterface) -> String {
        var text = " <interface name=\"\(escaped(interface.name))\">\n"
        for method in interface.methods {
            let arguments = method.arguments.map { argument($0, direction: "in") } + method.results.map { argument($0, direction: "out") }
            if arguments.isEmpty {
                text += "  <method name=\"\(escaped(method.name))\"/>\n"
            } else {
                text += "  <method name=\"\(escaped(method.name))\">\n" + arguments.joined() + "  </method>\n"
            }
        }
        for property in interface.properties {
            let access = property.set == nil ? "read" : "readwrite"
            let opening = "  <property name=\"\(escaped(property.name))\" type=\"\(escaped(property.signature))\" access=\"\(access)\""
            if property.emitsChangedSignal {
                text += opening + "/>\n"
            } else {
                text += opening + ">\n"
                    + "   <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"false\"/>\n"
                    + "  </property>\n"
            }
        }
        return text + " </interface>\n"
    }

    private static func argument(_ argument: ExportedArgument, direction: String) -> String {
        "   <arg name=\"\(escaped(argument.name))\" type=\"\(escaped(argument.signature))\" direction=\"\(direction)\"/>\n"
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

    private static let standardInterfaces = """
     <interface name="org.freedesktop.DBus.Introspectable">
      <method name="Introspect">
       <arg name="xml_data" type="s" direction="out"/>
      </method>
     </interface>
     <interface name="org.freedesktop.DBus.Peer">
      <method name="Ping"/>
      <method name="GetMachineId">
       <arg name="machine_uuid" type="s" direction="out"/>
      </method>
     </interface>
     <interface name="org.freedesktop.DBus.Properties">
      <method name="Get">
       <arg name="interface_name" type="s" direction="in"/>
       <arg name="property_name" type="s" direction="in"/>
       <arg name="value" type="v" direction="out"/>
      </method>
      <method name="GetAll">
       <arg name="interface_name" type="s" direction="in"/>
       <arg name="props" type="a{sv}" direction="out"/>
      </method>
      <method name="Set">
       <arg name="interface_name" type="s" direction="in"/>
       <arg name="property_name" type="s" direction="in"/>
       <arg name="value" type="v" direction="in"/>
      </method>
      <signal name="PropertiesChanged">
       <arg name="interface_name" type="s"/>
       <arg name="changed_properties" type="a{sv}"/>
       <arg name="invalidated_properties" type="as"/>
      </signal>
     </interface>

    """

    private static let objectManagerInterface = """
     <interface name="org.freedesktop.DBus.ObjectManager">
      <method name="GetManagedObjects">
       <arg name="object_paths_interfaces_and_properties" type="a{oa{sa{sv}}}" direction="out"/>
      </method>
      <signal name="InterfacesAdded">
       <arg name="object_path" type="o"/>
       <arg name="interfaces_and_properties" type="a{sa{sv}}"/>
      </signal>
      <signal name="InterfacesRemoved">
       <arg name="object_path" type="o"/>
       <arg name="interfaces" type="as"/>
      </signal>
     </interface>

    """
}
