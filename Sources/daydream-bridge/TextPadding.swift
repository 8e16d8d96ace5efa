extension String {
    /// The text cut or padded with spaces to exactly `width` characters: one column of a table.
    func paddedOrCut(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
