extension DaydreamPacket {
    /// One line of JSON: `"raw"` holds the counts exactly as packed, beside it
    /// the scaled values (quaternion, m/s^2, rad/s, touch 0...1 or null,
    /// buttons by name). Used by `daydream-bridge decode` and `replay --print`.
    public var jsonLine: String {
        var json = "{\"raw\": {"
        json += "\"time\": \(time), \"seq\": \(sequence), "
        json += "\"orientation\": \(Self.json(orientation)), "
        json += "\"acceleration\": \(Self.json(acceleration)), "
        json += "\"gyro\": \(Self.json(gyro)), "
        json += "\"touch\": [\(touchX), \(touchY)], "
        json += "\"buttons\": \(buttons.rawValue), \"status\": \(status)}, "
        let q = quaternion
        json += "\"time_ms\": \(time), \"seq\": \(sequence), "
        json += "\"rotation_vector\": \(Self.json(rotationVector)), "
        json += "\"quaternion\": {\"w\": \(q.w), \"x\": \(q.x), \"y\": \(q.y), \"z\": \(q.z)}, "
        json += "\"acceleration\": \(Self.json(accelerationSI)), "
        json += "\"rotation_rate\": \(Self.json(rotationRate)), "
        if let point = touchPoint {
            json += "\"touch\": {\"x\": \(point.x), \"y\": \(point.y)}, "
        } else {
            json += "\"touch\": null, "
        }
        json += "\"buttons\": [" + buttons.names.map { "\"\($0)\"" }.joined(separator: ", ") + "], "
        json += "\"status\": \(status)}"
        return json
    }

    private static func json(_ v: RawVector) -> String { "[\(v.x), \(v.y), \(v.z)]" }
    private static func json(_ v: Vector3) -> String { "[\(v.x), \(v.y), \(v.z)]" }
}
