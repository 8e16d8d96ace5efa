/// Calls `body` with the object `reference` points to, borrowed: no retain and no release
/// around the call, as a strong reference loaded from a variable would take (one pair each,
/// about 40 instructions). The caller must keep the object alive through the call by other
/// means: a strong reference that nothing can drop until `body` returns.
///
/// Written in this Swift 6 module rather than calling the standard library's
/// `_withUnsafeGuaranteedRef` from isolated code: a closure isolated to the main actor and
/// passed to the standard library is checked at run time to run on it (a call into the
/// concurrency runtime per packet); one passed to this function is proven so when compiled.
@inlinable @inline(__always)
package func withBorrowed<Object: AnyObject, Result>(_ reference: Unmanaged<Object>, _ body: (Object) -> Result) -> Result {
    reference._withUnsafeGuaranteedRef { body($0) }
}
