extension DaydreamPacket {
    /// One line of JSON: `"raw"` holds the counts exactly as packed, beside it
    /// the scaled values (quaternion, m/s^2, rad/s, touch 0...1 or null,
    /// buttons by name). Used by `daydream-bridge decode` and `replay --print`. Each family
    /// says its own fields (`ControllerFamily.json`).
    public var jsonLine: String {
        family == .daydream ? daydreamJSONLine : family.family.json(self)
    }

    /// The Daydream's line.
    public var daydreamJSONLine: String {
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

    static func json(_ v: RawVector) -> String { "[\(v.x), \(v.y), \(v.z)]" }
    static func json(_ v: Vector3) -> String { "[\(v.x), \(v.y), \(v.z)]" }

    /// The scaled fields every family shares: touch 0...1 or null, the buttons by name.
    var sharedScaledJSON: String {
        var json = ""
        if let point = touchPoint {
            json += "\"touch\": {\"x\": \(point.x), \"y\": \(point.y)}, "
        } else {
            json += "\"touch\": null, "
        }
        json += "\"buttons\": [" + buttons.names.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        return json
    }

    /// A Gear VR packet: `raw` holds its three samples (time in microseconds, acceleration,
    /// gyro), the magnetometer, touch and whether a finger is down, byte 58 without the idle
    /// flag, temperature and battery; beside it each sample in m/s^2 and rad/s. All on the Gear
    /// VR's own axes, as sent (the bridge reads them on the common axes: `gearVRToCommonAxes`).
    public var gearVRJSONLine: String {
        // As the packet says them: on the Gear VR's own axes, scaled values too.
        let samples = (0..<3).map { index in
            let common = sample(index)
            return IMUSample(time: common.time, acceleration: common.acceleration.commonToGearVRAxes,
                             gyro: common.gyro.commonToGearVRAxes)
        }
        var json = "{\"raw\": {\"samples\": ["
        json += samples.map { "{\"time\": \($0.time), \"acceleration\": \(Self.json($0.acceleration)), \"gyro\": \(Self.json($0.gyro))}" }
            .joined(separator: ", ")
        json += "], \"magnetometer\": \(Self.json(extras.magnetometer)), "
        json += "\"touch\": [\(extras.rawTouchX), \(extras.rawTouchY)], \"touching\": \(isTouching), "
        json += "\"buttons\": \(gearVRButtonsByte & ~GearVRLayout.idleFlag), "
        json += "\"temperature\": \(extras.temperature), \"battery\": \(battery ?? 0)}, "
        json += "\"family\": \"gear-vr\", \"samples\": ["
        json += samples.map { sample in
            "{\"time_us\": \(sample.time), \"acceleration\": \(Self.json(Vector3(sample.acceleration, scale: scale.acceleration))), "
                + "\"rotation_rate\": \(Self.json(Vector3(sample.gyro, scale: scale.gyro)))}"
        }.joined(separator: ", ")
        json += "], " + sharedScaledJSON + ", "
        json += "\"temperature_c\": \(extras.temperature), \"battery_percent\": \(battery ?? 0), "
        json += "\"idle\": \(extras.buttonFlags & GearVRLayout.idleFlag != 0)}"
        return json
    }

    /// An Oculus Go packet (experimental: the layout is second-hand): `raw` holds the counter,
    /// acceleration, magnetometer, touch, whether a finger is down and byte 19's buttons.
    public var oculusGoJSONLine: String {
        var json = "{\"raw\": {\"counter\": \(extras.counter), \"acceleration\": \(Self.json(acceleration)), "
        json += "\"magnetometer\": \(Self.json(extras.magnetometer)), "
        json += "\"touch\": [\(extras.rawTouchX), \(extras.rawTouchY)], \"touching\": \(isTouching), "
        json += "\"buttons\": \(oculusGoBytes[19] & 0x0F), \"byte18\": \(status)}, "
        json += "\"family\": \"oculus-go\", \"acceleration\": \(Self.json(accelerationSI)), "
        json += sharedScaledJSON + "}"
        return json
    }
}
