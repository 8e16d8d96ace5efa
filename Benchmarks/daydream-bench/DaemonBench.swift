/// What the daemon cost while serving emulated controllers.
struct DaemonResult {
    /// What ran: the real daemon, or a stand-in, and how the controllers were fed.
    var what: String
    var loadSeconds: Double
    var cpuPercent: Double
    var peakRSSMegabytes: Double
    var idleSeconds: Double
    var idleWakeupsPerSecond: Double
}
