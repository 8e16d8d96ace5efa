/// Summary of a set of timings (same unit as the input).
struct Distribution {
    var count: Int
    var p50: Double
    var p99: Double
    var p999: Double
    var max: Double
    var mean: Double

    /// Sorts `samples` in place and summarises them (nearest-rank percentiles).
    init(sorting samples: inout [Int64]) {
        samples.sort()
        count = samples.count
        guard let last = samples.last else {
            p50 = .nan; p99 = .nan; p999 = .nan; max = .nan; mean = .nan
            return
        }
        func rank(_ fraction: Double) -> Double {
            let index = Swift.min(samples.count - 1, Int((fraction * Double(samples.count)).rounded(.up)) - 1)
            return Double(samples[Swift.max(0, index)])
        }
        p50 = rank(0.50)
        p99 = rank(0.99)
        p999 = rank(0.999)
        max = Double(last)
        mean = Double(samples.reduce(0, &+)) / Double(samples.count)
    }
}
