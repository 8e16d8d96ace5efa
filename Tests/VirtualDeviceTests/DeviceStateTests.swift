import CEvdev
import EventVocabulary
import Mapping
import Testing
@testable import VirtualDevice

/// `DeviceState`: declared codes, and taking another state's values in place.
@Suite("Device state")
struct DeviceStateTests {
    private let capabilities = DeviceCapabilities(
        keys: [Code.btnSouth], relativeAxes: [Code.relX],
        absoluteAxes: [AbsoluteAxis(code: Code.absX, info: .stick)])

    @Test func declaresItsCodesAndNoOthers() {
        let state = DeviceState(capabilities: capabilities)
        #expect(state.isDeclared(type: Code.evKey, code: Code.btnSouth))
        #expect(state.isDeclared(type: Code.evRel, code: Code.relX))
        #expect(state.isDeclared(type: Code.evAbs, code: Code.absX))
        #expect(state.isDeclared(type: UInt16(EV_SYN), code: UInt16(SYN_REPORT)))
        #expect(!state.isDeclared(type: Code.evKey, code: UInt16(BTN_EAST)))
        #expect(!state.isDeclared(type: Code.evAbs, code: UInt16(ABS_Y)))
        #expect(!state.isDeclared(type: Code.evRel, code: 200), "past the bits")
        #expect(state.declared.contains(type: Code.evKey, code: Code.btnSouth))
    }

    @Test func takingValuesCopiesKeysAndAxesAndKeepsTheTwoApart() {
        let initial = DeviceState(capabilities: capabilities)
        var written = initial
        var requested = initial
        requested.record(type: Code.evKey, code: Code.btnSouth, value: 1)
        requested.record(type: Code.evAbs, code: Code.absX, value: 1200)
        written.takeValues(from: requested, axes: ~0, keys: true)
        #expect(written.isDown(Code.btnSouth))
        #expect(written.value(ofAxis: Code.absX) == 1200)
        requested.record(type: Code.evKey, code: Code.btnSouth, value: 0)
        requested.record(type: Code.evAbs, code: Code.absX, value: -5)
        #expect(written.isDown(Code.btnSouth), "a later change to the source does not reach the copy")
        #expect(written.value(ofAxis: Code.absX) == 1200)
        #expect(!requested.isDown(Code.btnSouth))
        #expect(initial.isAtRest && !written.isAtRest)
    }
}
