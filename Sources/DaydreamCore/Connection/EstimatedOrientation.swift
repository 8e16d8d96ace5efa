import DaydreamProtocol
import Timebase

/// The orientation a feed writes into the packets of a family whose packets carry none
/// (`OrientationSource.estimated`): each IMU sample goes through an `OrientationEstimator` at its
/// own time step (the controller's microsecond clock when the packet has one, the arrival times
/// otherwise), and the packet leaves with the estimate as its `orientation` counts.
struct EstimatedOrientation {
    private(set) var estimator = OrientationEstimator()
    /// The controller's clock at the last sample taken, microseconds.
    private var lastSampleTime: UInt32?
    /// When the last packet arrived.
    private var lastArrival: MonotonicTime?

    /// Runs `packet`'s samples, oldest first, through the estimator and sets its orientation.
    mutating func apply(to packet: inout DaydreamPacket, at time: MonotonicTime) {
        let scale = packet.scale
        let arrivalStep = lastArrival.map { Double(time.nanoseconds - $0.nanoseconds) / 1e9 } ?? 0
        lastArrival = time
        let count = max(Int(packet.sampleCount), 1)
        for index in 0..<count {
            let sample = packet.sample(index)
            let acceleration = Vector3(sample.acceleration, scale: scale.acceleration)
            guard scale.gyro != 0 else {
                estimator.update(acceleration: acceleration)
                continue
            }
            var step = arrivalStep / Double(count)
            if packet.clock == .microseconds {
                step = lastSampleTime.map { Double(sample.time &- $0) / 1e6 } ?? 0
                lastSampleTime = sample.time
            }
            estimator.update(rate: Vector3(sample.gyro, scale: scale.gyro), acceleration: acceleration, step: step)
        }
        packet.orientation = estimator.rotationVectorCounts
    }

    /// The link went down: the next packet's step is unknown (the pose is kept).
    mutating func linkRestarted() {
        lastSampleTime = nil
        lastArrival = nil
    }
}
