import BlueZ
import DBus
import DaydreamProtocol
import Descriptors
import EventLoop
import Foundation
import TestSupport

/// A second BlueZ client that does what Monado's Daydream driver does: `AcquireNotify` on the
/// controller's input characteristic, then reads 20-byte packets from the descriptor.
@MainActor
final class MonadoStandIn {
    let client: BlueZClient
    private(set) var socket: FileDescriptor?

    init(busAddress: String, reactor: Reactor) throws {
        client = BlueZClient(connection: try BusConnection(address: busAddress, reactor: reactor))
        client.start()
    }

    /// The input characteristic's path under the controller at `address`, once the client knows it.
    func inputPath(of address: String) -> String? {
        guard let device = client.cache.device(address: address) else { return nil }
        return client.cache.characteristics(of: device.path).first {
            $0.uuid == DaydreamGATT.inputCharacteristicUUID && $0.serviceUUID == DaydreamGATT.serviceUUID
        }?.path
    }

    /// `NotifyAcquired` of `path` as this client's cache has it (BlueZ's announcements).
    func notifyAcquired(_ path: String) -> Bool? {
        client.cache.properties(path, BlueZNames.gattCharacteristic)?["NotifyAcquired"]?.boolean
    }

    /// Calls `AcquireNotify` on `path`; `done` gets nil on success (the socket kept) or BlueZ's error name.
    func acquire(_ path: String, done: @escaping @MainActor (String?) -> Void) {
        client.acquireNotify(characteristic: path) { [weak self] result in
            switch result {
            case .success(let acquired):
                self?.socket = acquired.descriptor.take()
                done(nil)
            case .failure(let error):
                done(error.name)
            }
        }
    }

    /// The next notification queued on the acquired socket, if one is.
    func readPacket() -> [UInt8]? {
        guard let descriptor = socket?.rawValue else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }

    /// Closes the acquired socket, as Monado does when its service stops.
    func release() {
        try? socket.take()?.close()
    }

    func stop() {
        release()
        client.connection.close()
    }
}
