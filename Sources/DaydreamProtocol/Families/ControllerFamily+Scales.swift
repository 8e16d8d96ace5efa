extension ControllerFamily {
    /// Each family's `scale`, indexed by its `ControllerFamilyID.rawValue` (the Daydream's for a
    /// number no family has): what a packet of another family than the Daydream reads for each
    /// sample's motion and touch, without building the family's description every time.
    static let scalesByID: [IMUScale] = {
        let highest = all.map { Int($0.id.rawValue) }.max() ?? 0
        var scales = [IMUScale](repeating: .daydream, count: highest + 1)
        // Backwards, so the first family with a number wins, as in `described(by:)`.
        for family in all.reversed() { scales[Int(family.id.rawValue)] = family.scale }
        return scales
    }()

    /// The scale of the family `id` describes, as `described(by: id).scale`.
    static func scale(of id: ControllerFamilyID) -> IMUScale {
        let index = Int(id.rawValue)
        return index < scalesByID.count ? scalesByID[index] : .daydream
    }
}
