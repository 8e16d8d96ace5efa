/// A pattern for the focused application's id (a Wayland app_id, or an X11 WM_CLASS class or
/// instance): `*` stands for any run of characters, `?` for one; letters match without regard
/// to case (`"xonotic*"` matches `Xonotic-SDL`). Nothing else is special.
public struct ApplicationPattern: Hashable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let text: String
    private let folded: [Character]

    /// A pattern written `text`.
    public init(_ text: String) {
        self.text = text
        folded = Array(text.lowercased())
    }

    public var description: String { text }

    /// Whether `id` matches the whole pattern.
    public func matches(_ id: String) -> Bool {
        let subject = Array(id.lowercased())
        // Greedy matching with one backtrack point (the last `*`): linear in practice, and never
        // worse than patterns times subject length.
        var (p, s) = (0, 0)
        var star: (pattern: Int, subject: Int)?
        while s < subject.count {
            if p < folded.count, folded[p] == "*" {
                star = (p, s)
                p += 1
            } else if p < folded.count, folded[p] == "?" || folded[p] == subject[s] {
                p += 1
                s += 1
            } else if let last = star {
                p = last.pattern + 1
                s = last.subject + 1
                star = (last.pattern, last.subject + 1)
            } else {
                return false
            }
        }
        while p < folded.count, folded[p] == "*" { p += 1 }
        return p == folded.count
    }
}
