import EventVocabulary
import Mapping

extension EventCodeNames {
    /// The valid name nearest to `name` among `types`, for the config's
    /// "did you mean ...?".
    ///
    /// A name missing its prefix (`SOUTH`, `A`) is matched to the prefixed
    /// one (`BTN_SOUTH`, `KEY_A`) first.
    public static func suggestion(for name: String, types: [UInt16]) -> String? {
        let upper = name.uppercased()
        for type in types {
            for prefix in namePrefixes(of: type) {
                let prefixed = upper.hasPrefix(prefix) ? upper : prefix + upper
                if resolve(prefixed, types: [type]) != nil { return prefixed }
            }
        }
        return NearestName.nearest(to: name, among: types.lazy.flatMap { allNames(type: $0) })
    }

    private static func namePrefixes(of type: UInt16) -> [String] {
        switch type {
        case EventType.key: ["KEY_", "BTN_"]
        case EventType.rel: ["REL_"]
        case EventType.abs: ["ABS_"]
        default: []
        }
    }
}
