// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "daydream-bridge",
    products: [
        .library(name: "Daydream", targets: ["Daydream"]),
        .executable(name: "daydream-bridge", targets: ["daydream-bridge"]),
    ],
    targets: [
        // C libraries from Debian, through pkg-config.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .systemLibrary(
            name: "CEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CXCB",
            pkgConfig: "xcb",
            providers: [.apt(["libxcb1-dev"])]
        ),
        // Linux interfaces Glibc does not export: epoll, timerfd, signalfd, eventfd, the socket error queue.
        .systemLibrary(name: "CLinux"),
        // A small C ABI over toml++ (C++17), so Swift never sees C++.
        .target(
            name: "CTOML",
            cxxSettings: [
                .define("TOML_HEADER_ONLY", to: "0"),
                .define("TOML_SHARED_LIB", to: "1"),
                .define("TOML_EXCEPTIONS", to: "1"),
            ],
            linkerSettings: [.linkedLibrary("tomlplusplus")]
        ),

        // Pure values: packet layout, units, GATT UUIDs.
        .target(name: "DaydreamProtocol"),
        // Owned file descriptors and system call errors: the lowest layer, for every owner of an fd.
        .target(name: "Descriptors"),
        // Monotonic time and the scheduler protocol; a manual clock for tests.
        .target(name: "Timebase"),
        // epoll, timers, signals, clock; libdbus watch/timeout glue lives in BlueZ.
        .target(name: "EventLoop", dependencies: ["CLinux", "Descriptors", "Timebase"]),
        // The libdbus wrapper: connection, messages, values, pending calls, exported objects, fd passing.
        .target(name: "DBus", dependencies: ["CDBus", "Descriptors", "EventLoop", "Timebase"]),
        // The org.bluez client on that wrapper: object cache, operations, pairing agent.
        .target(name: "BlueZ", dependencies: ["DBus", "Descriptors", "EventLoop", "Timebase", "DaydreamProtocol"]),
        // The controller model and connection manager (DDController, DaydreamControllerManager),
        // with a Swift-native observer hook for connect/disconnect/battery: no Foundation, so the
        // daemon never loads it (nor ICU).
        .target(name: "DaydreamCore", dependencies: ["DaydreamProtocol", "Timebase", "DBus", "BlueZ", "Descriptors", "EventLoop"]),
        // The public library: DaydreamCore re-exported, plus what needs Foundation (the iOS-style
        // notifications, the static discovery API on the main dispatch queue).
        .target(name: "Daydream", dependencies: ["DaydreamCore", "DBus", "BlueZ", "EventLoop"]),
        // The words the engine and the devices share, below both: event types and codes with their
        // names (EventCodeTable.swift, generated from the kernel header by scripts/generate-event-codes),
        // output events, device kinds and their codes, the pads with fixed codes. Pure Swift.
        .target(name: "EventVocabulary"),
        // The mapping engine: pure.
        .target(name: "Mapping", dependencies: ["DaydreamProtocol", "EventVocabulary", "Timebase"]),
        // TOML text -> profiles, with diagnostics; event code names come from EventVocabulary's
        // EventCodeNames (a table generated from linux/input-event-codes.h).
        .target(
            name: "BridgeConfig",
            dependencies: ["CTOML", "DaydreamProtocol", "Descriptors", "DSU", "EventVocabulary", "Mapping", "Timebase"]
        ),
        // uinput devices through libevdev; the engine's events, never the engine.
        .target(name: "VirtualDevice", dependencies: ["CEvdev", "Descriptors", "EventVocabulary", "Timebase"]),
        // The virtual DualSense's reports (descriptor, feature answers, input encoder) and the
        // /dev/uhid messages: pure bytes, so the tests check them without a kernel (zlib for
        // the Bluetooth reports' CRC, DaydreamProtocol's Vector3 for the motion axes).
        .target(name: "VirtualHID", dependencies: ["CZlib", "DaydreamProtocol"]),
        // The virtual DualSense on /dev/uhid: the device, and the sink that feeds it the engine's
        // gamepad events and the controller's motion, touch and battery.
        .target(
            name: "VirtualDualSense",
            dependencies: [
                "VirtualHID", "VirtualDevice", "EventVocabulary", "Mapping", "DaydreamCore", "DaydreamProtocol", "Timebase", "Descriptors",
                "EventLoop",
            ]
        ),
        // The recording text format (`record`, `replay`): pure, so a fuzzer can target it.
        .target(name: "Recording", dependencies: ["DaydreamProtocol", "Timebase"]),
        // The DSU ("cemuhook") protocol: messages, their CRC32 (zlib's), and a controller's packets
        // in the form DSU clients read. Pure: no socket, no uinput.
        .target(name: "DSU", dependencies: ["CZlib", "DaydreamProtocol", "Timebase"]),
        // The DSU server: a UDP socket on the event loop, one slot per controller, fed by the
        // controllers' feeds.
        .target(name: "DSUServer", dependencies: ["CLinux", "DSU", "DaydreamCore", "DaydreamProtocol", "Descriptors", "EventLoop", "Timebase"]),
        // systemd's notify protocol without libsystemd.
        .target(name: "SystemIntegration", dependencies: ["Descriptors"]),
        // The daemon: controllers -> mapping -> devices.
        .target(
            name: "Bridge",
            dependencies: [
                "DaydreamCore", "DaydreamProtocol", "EventVocabulary", "Mapping", "BridgeConfig", "VirtualDevice", "EventLoop", "DBus",
                "BlueZ", "Recording", "Timebase", "SystemIntegration", "Descriptors", "DSUServer",
            ],
            resources: []
        ),
        // wlroots' foreign toplevel protocol over libwayland-client, for follow-focus.
        .target(name: "CWaylandToplevel", linkerSettings: [.linkedLibrary("wayland-client")]),
        // libmicrohttpd (Debian's libmicrohttpd-dev for the header), loaded with dlopen when a
        // server starts rather than linked (see chttp.h), behind C wrappers.
        .target(name: "CHTTP"),
        // libqrencode (Debian's libqrencode-dev for the header), loaded with dlopen when `ui`
        // draws its address as a QR code rather than linked (see cqrencode.h).
        .target(name: "CQRencode"),
        // A local HTTP server for the editor page, on the Reactor: requests, Server-Sent Events, the
        // page's access rules and the addresses it is reached at.
        .target(name: "LocalHTTP", dependencies: ["CHTTP", "CQRencode", "Descriptors", "EventLoop", "Timebase"]),
        // Which application has the focus, from the desktop: X11, wlroots compositors.
        .target(name: "FocusTracking", dependencies: ["CXCB", "CWaylandToplevel", "EventLoop"]),
        // The tools beside the daemon: the terminal monitor, the recorder, and replay.
        .target(
            name: "BridgeTools",
            dependencies: ["Bridge", "DaydreamCore", "DaydreamProtocol", "EventLoop", "Mapping", "Recording", "Timebase", "VirtualDevice"]
        ),
        .executableTarget(
            name: "daydream-bridge",
            // DaydreamCore, never Daydream: the daemon links no Foundation.
            dependencies: [
                "Bridge", "BridgeTools", "DaydreamCore", "DaydreamProtocol", "BridgeConfig", "EventVocabulary", "Mapping", "VirtualDevice",
                "Recording", "Timebase", "EventLoop", "DBus", "BlueZ", "Descriptors", "VirtualDualSense", "DSU", "DSUServer", "FocusTracking",
                "LocalHTTP",
            ]
        ),
        // The library's README example, built as a program.
        .executableTarget(
            name: "daydream-example",
            dependencies: ["Daydream"],
            path: "Examples/daydream-example"
        ),
        // `make bench`: pipeline cost, fd-to-write and DSU latency, daemon CPU/RSS/wake-ups.
        .executableTarget(
            name: "daydream-bench",
            dependencies: [
                "Bridge", "DaydreamCore", "DaydreamProtocol", "EventVocabulary", "Mapping", "Timebase", "BridgeConfig", "VirtualDevice",
                "EventLoop", "Descriptors", "DSU", "DSUServer", "VirtualDualSense", "VirtualHID",
            ],
            path: "Benchmarks/daydream-bench"
        ),
        // `make bench`'s machine floor: the daemon's epoll/read/write pattern in plain C.
        .executableTarget(
            name: "daydream-machine-floor",
            path: "Benchmarks/machine-floor",
            cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]
        ),

        // What the tests share: temporary directories that remove what they made, the built
        // binary's runners, pipes, a private dbus-daemon, tmux on a private server, the desktop
        // rigs (Xvfb, sway, KWin, GNOME Shell) and the daemon that follows their focus.
        .target(name: "TestSupport", dependencies: ["Descriptors", "EventLoop", "Timebase"], path: "Tests/TestSupport"),

        // One test target per source target.
        .testTarget(name: "DescriptorsTests", dependencies: ["CLinux", "Descriptors"]),
        .testTarget(name: "DaydreamProtocolTests", dependencies: ["DaydreamProtocol"]),
        .testTarget(name: "EventVocabularyTests", dependencies: ["EventVocabulary", "CEvdev", "TestSupport"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "Timebase", "TestSupport"]),
        .testTarget(name: "LocalHTTPTests", dependencies: ["LocalHTTP", "EventLoop", "Timebase", "TestSupport"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "Descriptors", "EventLoop", "Timebase", "TestSupport"]),
        .testTarget(name: "DaydreamCoreTests", dependencies: ["DaydreamCore", "Descriptors", "EventLoop", "Timebase"]),
        .testTarget(name: "DaydreamTests", dependencies: ["Daydream", "DaydreamProtocol", "Timebase"]),
        .testTarget(
            name: "MappingTests",
            dependencies: ["Mapping", "BridgeConfig", "DaydreamProtocol", "EventVocabulary", "Timebase"],
            resources: [.copy("Timelines")]
        ),
        .testTarget(
            name: "BridgeConfigTests",
            dependencies: [
                "BridgeConfig", "CEvdev", "DaydreamProtocol", "Descriptors", "DSU", "EventVocabulary", "Mapping", "Timebase", "VirtualDevice",
                "TestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "VirtualDeviceTests", dependencies: ["VirtualDevice", "EventVocabulary", "Mapping", "CEvdev", "Descriptors", "TestSupport"]
        ),
        .testTarget(name: "VirtualHIDTests", dependencies: ["VirtualHID", "TestSupport"]),
        .testTarget(
            name: "VirtualDualSenseTests",
            dependencies: [
                "VirtualDualSense", "VirtualHID", "VirtualDevice", "EventVocabulary", "Mapping", "DaydreamCore", "DaydreamProtocol", "Timebase",
                "Descriptors", "EventLoop",
            ]
        ),
        .testTarget(name: "DSUTests", dependencies: ["DSU", "DaydreamProtocol", "Timebase"]),
        .testTarget(
            name: "DSUServerTests",
            dependencies: ["DSUServer", "DSU", "DaydreamCore", "DaydreamProtocol", "Descriptors", "EventLoop", "Timebase", "TestSupport"]
        ),
        .testTarget(name: "RecordingTests", dependencies: ["Recording", "DaydreamProtocol", "Timebase"]),
        .testTarget(name: "SystemIntegrationTests", dependencies: ["SystemIntegration", "Descriptors", "TestSupport"]),
        .testTarget(
            name: "BridgeTests",
            dependencies: [
                "Bridge", "EventVocabulary", "Mapping", "Daydream", "DaydreamProtocol", "Timebase", "BridgeConfig", "VirtualDevice",
                "EventLoop", "DSU", "DSUServer", "Descriptors", "Recording", "TestSupport",
            ]
        ),
        .testTarget(
            name: "BridgeToolsTests",
            dependencies: [
                "BridgeTools", "Bridge", "Recording", "EventVocabulary", "Mapping", "DaydreamProtocol", "Timebase", "BridgeConfig",
                "VirtualDevice", "EventLoop", "TestSupport",
            ],
            exclude: ["Golden"]
        ),
        // The org.bluez client and the connection manager over it, against a private
        // dbus-daemon and a fake org.bluez (Tests/fake-bluez).
        .testTarget(
            name: "BlueZTests",
            dependencies: ["DBus", "BlueZ", "EventLoop", "Daydream", "DaydreamCore", "DaydreamProtocol", "Timebase", "TestSupport", "Bridge", "Descriptors"]
        ),
        // The built daydream-bridge, as a user runs it.
        .testTarget(name: "CLITests", dependencies: ["DaydreamProtocol", "Descriptors", "TestSupport"]),
        // The focus sources against real desktops: Xvfb with openbox, a headless sway.
        .testTarget(name: "FocusTrackingTests", dependencies: ["FocusTracking", "EventLoop", "Timebase", "TestSupport"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
