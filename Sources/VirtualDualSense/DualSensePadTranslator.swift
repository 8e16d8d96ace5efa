import EventVocabulary
import Mapping
import VirtualHID

/// Applies the engine's gamepad events to a DualSense's state: the codes hid-playstation gives
/// its gamepad node (`FixedPad.dualsense`), mapped back to the report's buttons and bytes.
struct DualSensePadTranslator {
    private var hatX: Int32 = 0
    private var hatY: Int32 = 0
    private var leftTriggerAxis: UInt8 = 0
    private var rightTriggerAxis: UInt8 = 0

    private static let buttons: [UInt16: DualSenseInputState.Buttons] = [
        EventCode.btnSouth: .cross, EventCode.btnEast: .circle, EventCode.btnNorth: .triangle,
        EventCode.btnWest: .square, EventCode.btnTl: .l1, EventCode.btnTr: .r1, EventCode.btnTl2: .l2,
        EventCode.btnTr2: .r2, EventCode.btnSelect: .create, EventCode.btnStart: .options,
        EventCode.btnMode: .ps, EventCode.btnThumbl: .l3, EventCode.btnThumbr: .r3,
    ]

    /// Applies one event; false for a code the DualSense has no place for (the config check
    /// keeps those out).
    mutating func apply(_ event: OutputEvent, to state: inout DualSenseInputState) -> Bool {
        switch event.type {
        case EventType.key:
            guard let button = Self.buttons[event.code] else { return false }
            if event.value != 0 { state.buttons.insert(button) } else { state.buttons.remove(button) }
        case EventType.abs:
            switch event.code {
            case EventCode.absX: state.leftStick.x = Self.stickByte(event.value)
            case EventCode.absY: state.leftStick.y = Self.stickByte(event.value)
            case EventCode.absRx: state.rightStick.x = Self.stickByte(event.value)
            case EventCode.absRy: state.rightStick.y = Self.stickByte(event.value)
            case EventCode.absZ: leftTriggerAxis = Self.triggerByte(event.value)
            case EventCode.absRz: rightTriggerAxis = Self.triggerByte(event.value)
            case EventCode.absHat0x: hatX = event.value
            case EventCode.absHat0y: hatY = event.value
            default: return false
            }
        case EventType.syn:
            return true
        default:
            return false
        }
        state.dpad = DualSenseInputState.DPad(x: hatX, y: hatY)
        // SDL reads L2/R2 from the trigger bytes: a button alone still pulls its trigger fully.
        state.leftTrigger = state.buttons.contains(.l2) ? 255 : leftTriggerAxis
        state.rightTrigger = state.buttons.contains(.r2) ? 255 : rightTriggerAxis
        return true
    }

    /// Everything released and centred.
    mutating func release(_ state: inout DualSenseInputState) {
        self = DualSensePadTranslator()
        state.buttons = []
        state.dpad = .centred
        state.leftStick = .centred
        state.rightStick = .centred
        state.leftTrigger = 0
        state.rightTrigger = 0
    }

    /// -32768...32767 to 0...255, 0 to the centre 128.
    static func stickByte(_ value: Int32) -> UInt8 {
        UInt8((Int(max(-32768, min(32767, value))) + 32768) >> 8)
    }

    static func triggerByte(_ value: Int32) -> UInt8 {
        UInt8(max(0, min(255, value)))
    }
}
