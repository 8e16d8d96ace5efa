// libFuzzer entry for the config reader, built by Fuzz/build-fuzzer together with
// Sources/{DaydreamProtocol,Timebase,Mapping,BridgeConfig} and the CTOML shim
// (toml++ compiled in, instrumented).
//
// Each input is a config file's bytes. Properties checked (a violation traps,
// which libFuzzer reports as a crash):
// - decoding never crashes, and gives the same result twice (no hidden order);
// - a refused config has at least one diagnostic, each with a message and a
//   position inside the text (or 0:0, unknown), in file order;
// - an accepted config has profiles, a starting profile that exists, and
//   capabilities; the mapping engine takes it and maps a few snapshots.
import BridgeConfig
import DaydreamProtocol
import EventVocabulary
import Mapping
import Timebase

@_cdecl("LLVMFuzzerTestOneInput")
public func configFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let first = decode(bytes)
    let second = decode(bytes)
    require(first == second, "decoding the same text twice gave different results")
    switch first {
    case .failure(let errors):
        checkDiagnostics(errors, in: bytes)
    case .success(let configuration):
        checkConfiguration(configuration)
    }
    return 0
}

private func decode(_ bytes: [UInt8]) -> Result<MappingConfiguration, ConfigErrors> {
    do {
        return .success(try ConfigDecoder.decode(bytes))
    } catch {
        return .failure(error)
    }
}

private func checkDiagnostics(_ errors: ConfigErrors, in bytes: [UInt8]) {
    require(!errors.diagnostics.isEmpty, "a refused config with no diagnostic")
    let lines = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    var previous = SourcePosition.unknown
    for diagnostic in errors.diagnostics {
        require(!diagnostic.message.isEmpty, "a diagnostic without a message")
        let position = diagnostic.position
        require(position.line >= 0 && position.column >= 0, "negative position \(position)")
        require(position.line <= lines, "diagnostic at line \(position.line) of a \(lines)-line text")
        if position != .unknown {
            require(!(position < previous), "diagnostics out of order: \(previous) then \(position)")
            previous = position
        }
        require(diagnostic.formatted(file: "f").hasPrefix("f:"), "bad formatted diagnostic")
    }
}

private func checkConfiguration(_ configuration: MappingConfiguration) {
    require(!configuration.profiles.isEmpty, "an accepted config without profiles")
    guard let start = configuration.startingProfileName(forController: "C0:DD:EE:00:00:01") else {
        fatalError("an accepted config without a starting profile")
    }
    require(configuration.profile(named: start) != nil, "starting profile \(start) does not exist")
    _ = configuration.capabilities
    var engine = MappingEngine(configuration: configuration)
    var output = OutputBuffer()
    let inputs = [
        ControllerInput(),
        ControllerInput(buttons: [.click, .home], touch: TouchPoint(x: 0.9, y: 0.1),
                        rotationRate: Vector3(x: 1, y: -2, z: 0.5)),
        ControllerInput(buttons: [.app, .volumeUp], touch: TouchPoint(x: 0.2, y: 0.7)),
        ControllerInput(),
    ]
    var time = MonotonicTime(nanoseconds: 1_000_000_000)
    for input in inputs {
        engine.update(input, at: time, into: &output)
        time = time + .milliseconds(600)
        engine.advance(to: time, into: &output)
        output.removeAll()
    }
    engine.releaseAll(into: &output)
}
