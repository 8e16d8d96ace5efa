// Compiled into every fuzzer (see build-fuzzer).

/// Traps with `message` when `condition` is false. Unlike `precondition`, the
/// message is printed in optimised builds too, so libFuzzer's report says
/// which property broke.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}
