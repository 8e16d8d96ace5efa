// The `Daydream` library: the controller model and connection manager of `DaydreamCore`
// (which never loads Foundation, so the daemon stays small), plus what needs Foundation:
// the iOS library's notifications and the static discovery API on the main dispatch queue.
@_exported import DaydreamCore
