/// Picks the valid name closest to a misspelt one, for "did you mean ...?".
public enum NearestName {
    /// The candidate nearest to `name`, or nil when none is close enough.
    ///
    /// Distance is the optimal-string-alignment edit distance (insertions,
    /// deletions, substitutions, swaps of neighbours) ignoring case and
    /// treating `-` and `_` alike; a candidate is close enough within a third
    /// of the name's length (at least 1, at most 3 edits). Ties go to the
    /// candidate listed first.
    public static func nearest<Candidates: Sequence<String>>(to name: String, among candidates: Candidates) -> String? {
        let target = normalized(name)
        let limit = max(1, min(3, target.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, normalized(candidate), limit: best.map { $0.distance - 1 } ?? limit)
            if let distance, distance < (best?.distance ?? limit + 1) {
                best = (candidate, distance)
                if distance == 0 { break }
            }
        }
        return best?.name
    }

    private static func normalized(_ name: String) -> [Unicode.Scalar] {
        name.lowercased().unicodeScalars.map { $0 == "_" ? "-" : $0 }
    }

    /// The edit distance between `a` and `b`, or nil when it exceeds `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        guard limit >= 0, abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previousRow = [Int](repeating: 0, count: b.count + 1)
        var row = Array(0...b.count)
        var nextRow = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            nextRow[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let substitution = row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                var distance = min(row[j] + 1, nextRow[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = min(distance, previousRow[j - 2] + 1)
                }
                nextRow[j] = distance
                rowMinimum = min(rowMinimum, distance)
            }
            guard rowMinimum <= limit else { return nil }
            (previousRow, row, nextRow) = (row, nextRow, previousRow)
        }
        let distance = row[b.count]
        return distance <= limit ? distance : nil
    }

    /// ` did you mean 'X'?` style suffix: `"; did you mean \(quote)X\(quote)?"`, or "" when nothing is close.
    static func suggestionSuffix<Candidates: Sequence<String>>(for name: String, among candidates: Candidates, quote: String = "'") -> String {
        guard let nearest = nearest(to: name, among: candidates) else { return "" }
        return "; did you mean \(quote)\(nearest)\(quote)?"
    }
}
