#if canImport(Glibc)
import Glibc
#endif
import Bridge
import BridgeConfig
import Descriptors
import EventLoop
import VirtualDevice

/// `ui --replay FILE`: a bridge inside the editor, playing a recording round and round instead of
/// a controller, with the config being edited, so the page can be tried (and tested) without a
/// controller. Its devices write nowhere (`/dev/null`): what they would send is seen on the page,
/// through a control socket of its own in a private directory. It reloads the config when the
/// page saves it, as the real bridge does.
@MainActor
final class EditorReplay {
    /// The control socket the page's `watch` stream reads.
    let socketPath: String
    private let directory: String
    private let daemon: BridgeDaemon
    private let source: RecordingControllerSource
    private let devNull: FileDescriptor

    /// Why the replay could not start, ready to print.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The page's bridge's reply to a request answered whole, asked on this loop.
    func reply(to request: ControlRequest) -> ControlReply {
        daemon.reply(to: request)
    }

    /// Loads the config (`configPath`, else the lookup), opens the recording and starts playing it
    /// on `reactor`. The daemon's SIGINT and SIGTERM handling stops the loop.
    init(recordingPath: String, configPath: String?, reactor: Reactor) throws(Failure) {
        let loaded: LoadedConfig
        do {
            loaded = try ConfigLoader.load(ConfigurationChoice.source(path: configPath))
        } catch {
            throw Failure(description: error.lines.joined(separator: "\n"))
        }
        let recording: RecordingFileReader
        do {
            recording = try RecordingFileReader(path: recordingPath)
        } catch {
            throw Failure(description: "\(error)")
        }
        let opened = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard opened >= 0 else { throw Failure(description: "cannot open /dev/null: \(String(cString: strerror(errno)))") }
        devNull = FileDescriptor(owning: opened)
        let target = devNull.rawValue
        do {
            daemon = try BridgeDaemon(loaded: loaded, profile: nil, reactor: reactor) { configuration, _ throws(VirtualDeviceError) in
                ControllerDevices(sink: try VirtualDeviceSet(
                    capabilities: configuration.capabilities, gamepadIdentity: configuration.gamepadIdentity, fileDescriptor: target))
            }
        } catch {
            throw Failure(description: "\(error)")
        }
        var template = Array((Self.runtimeDirectory() + "/daydream-bridge-ui.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Failure(description: "cannot make a directory for the replay's socket: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        socketPath = directory + "/control"
        source = RecordingControllerSource(
            entries: recording, reactor: reactor,
            repeating: { try? RecordingFileReader(path: recordingPath) },
            failed: { [daemon] failure in
                Logger.error("\(failure)\nstopping: the recording cannot be played past its bad line")
                daemon.shutdown()
            })
        do {
            try daemon.start(controlSocket: socketPath)
        } catch {
            rmdir(directory)
            throw Failure(description: "cannot start the replay's signal handling: \(error)")
        }
        guard access(socketPath, F_OK) == 0 else {
            daemon.shutdown()
            rmdir(directory)
            throw Failure(description: "the replay's control socket could not be made in \(directory) (see the warning above)")
        }
        source.start { daemon.add($0) }
    }

    /// Stops playing, releases everything and removes the socket and its directory.
    func stop() {
        source.stop()
        daemon.shutdown()
        unlink(socketPath)
        rmdir(directory)
    }

    /// `$XDG_RUNTIME_DIR` (the user's own, mode 0700), else `/tmp`.
    nonisolated static func runtimeDirectory() -> String {
        if let given = getenv("XDG_RUNTIME_DIR"), given.pointee != 0 { return String(cString: given) }
        return "/tmp"
    }
}
