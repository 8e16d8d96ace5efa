import EventVocabulary

/// The events a `VirtualDeviceSet` in memory accepted, shared by its devices, in order: each
/// device's frame as it ends.
final class EventLog {
    var events: [OutputEvent] = []
}
