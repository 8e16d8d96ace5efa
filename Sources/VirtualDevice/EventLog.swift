import EventVocabulary

/// The events a `VirtualDeviceSet` in memory accepted, shared by its devices, in order: each
/// device's frame as it ends.
final class EventLog {
    var events: [OutputEvent] = []
    /// When set, each frame written here fails with this errno, as a uinput device's writes
    /// fail once the device is gone from under its descriptor (`ENODEV`).
    var failsWith: Int32?
}
