import CEvdev
import EventVocabulary
import Testing

/// The generated table against libevdev's own: codes print as they did when libevdev named them.
@Suite("Event code names agree with libevdev")
struct LibevdevNameTests {
    static let types = [EventType.syn, EventType.key, EventType.rel, EventType.abs]

    @Test("every code libevdev names prints with libevdev's name", arguments: types)
    func printingNames(type: UInt16) {
        let maximum = libevdev_event_type_get_max(UInt32(type))
        #expect(maximum > 0)
        var compared = 0
        for code in 0...UInt16(maximum) {
            // libevdev built against an older header lacks the newest codes: compare what it knows.
            guard let name = libevdev_event_code_get_name(UInt32(type), UInt32(code)).map({ String(cString: $0) }) else { continue }
            #expect(EventCodeNames.knownName(type: type, code: code) == name)
            compared += 1
        }
        #expect(compared > 0)
    }

    @Test("every name in the table that libevdev knows denotes the same code", arguments: types)
    func lookups(type: UInt16) throws {
        let names = EventCodeNames.allNames(type: type) + ["BTN_A", "BTN_GAMEPAD", "BTN_MISC", "KEY_SCREENLOCK"]
        for name in names {
            let code = libevdev_event_code_from_name(UInt32(type), name)
            guard code >= 0 else { continue }
            #expect(EventCodeNames.resolve(name, types: [type])?.code == UInt16(code), "\(name)")
        }
    }

    @Test("event types are named as libevdev names them", arguments: types)
    func typeNames(type: UInt16) throws {
        let name = try #require(libevdev_event_type_get_name(UInt32(type)))
        #expect(EventCodeNames.name(type: type) == String(cString: name))
    }
}
