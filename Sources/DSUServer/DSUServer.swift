#if canImport(Glibc)
import Glibc
#endif
import DSU
import DaydreamCore
import DaydreamProtocol
import EventLoop
import Timebase

/// The DSU ("cemuhook") server: a UDP socket on the event loop that answers version and
/// controller-info requests and sends each subscribed client a data message as each controller
/// packet arrives.
///
/// Each controller gets a slot (up to four) by its address, kept for the server's life: the
/// same controller comes back to the same slot, shown disconnected while it is away. Feed a
/// controller through `consumer(forController:)`, attached to its `ControllerFeed`, or hand
/// the server its feed (`attach`). A fifth controller handed over by its feed waits, logged
/// once: the first slot whose controller is away while it is connected becomes its, and the
/// controller that held it waits in turn.
///
/// Bounded work: a datagram is at most 100 bytes and gets at most four replies; one readable
/// turn reads at most `datagramsPerTurn` (the loop comes back for the rest, after the
/// controllers' packets).
///
/// What a peer is sent before it has shown it is real. The protocol has no handshake, and the
/// clients echo nothing the server chose (Dolphin, Citra and yuzu renew on a timer; Cemu asks
/// again for each message it receives, naming the message's slot), so a request with a forged
/// source address looks like any other. A peer is unconfirmed until its requests (of any kind)
/// have run for `confirmationDelay`, each within `subscriptionLifetime` of the one before, and
/// no ICMP error came back for it, as real clients ask: Dolphin each second (controller
/// information from one socket, data from one per controller), Citra and yuzu both every 3 s,
/// Cemu its version first, then data again on each message. Until then, in bytes, it is sent at
/// most what it sent (a reply or message that would exceed that is withheld): a request with a
/// forged source address draws no more than itself, whatever the number of controllers. A
/// subscriber that cannot be paid a data message (100 bytes) is sent, at most every
/// `pingInterval` and when paid for, its slot's controller-information message (32 bytes)
/// instead: Cemu answers each with a data request, and so keeps asking until confirmed; the
/// others ignore it. Confirmed, a peer is sent everything it subscribed to; a silence of
/// `subscriptionLifetime` forgets it, and it starts again unconfirmed. A forger that keeps
/// asking on a real client's schedule is confirmed too: nothing in what the clients send tells
/// it apart. An ICMP error saying nobody reads at a peer's address (port or host unreachable)
/// forgets it at the next turn of the loop.
///
/// Places: at most `maximumClients` peers, `maximumClientsPerAddress` of them from one IP
/// address. A confirmed peer that renews on time keeps its place: squatters, however often they
/// ask, cannot take it. A newcomer that finds the places held (of its own address when that
/// address holds its share, of all otherwise) takes the place of the newest unconfirmed peer, or
/// is refused, and answered nothing, when every place it could take is held by a confirmed one.
@MainActor
public final class DSUServer {
    /// How long a subscription (and a peer's entry) holds after the peer's last request: over
    /// Citra's and yuzu's 3 s.
    public static let subscriptionLifetime = TimeSpan.seconds(4)
    /// How many clients are subscribed at once.
    public static let maximumClients = 16
    /// How many of them may come from one IP address (every local client comes from 127.0.0.1).
    public static let maximumClientsPerAddress = 8
    /// How long a peer's requests must run before it is confirmed (see above): Dolphin's second
    /// request, Citra's and yuzu's second round, Cemu's third answer to a ping.
    public static let confirmationDelay = TimeSpan.seconds(1)
    /// How often an unconfirmed subscriber may be pinged with its slot's controller information.
    public static let pingInterval = TimeSpan.seconds(0.5)
    /// How many datagrams one turn of the loop reads.
    static let datagramsPerTurn = 32

    /// Where it listens (the port the kernel picked when asked for 0).
    public let address: DSUListenAddress
    /// The id in the header of every message it sends: random, fixed for its life.
    public let serverID: UInt32
    public private(set) var statistics = DSUServerStatistics()

    private let socket: UDPSocket
    /// The clock subscriptions are timed by: the loop's, or a test's.
    private let clock: any DeadlineScheduler
    private var watch: IOWatch?
    @exclusivity(unchecked) private var clients = DSUClientTable(
        capacity: DSUServer.maximumClients, capacityPerAddress: DSUServer.maximumClientsPerAddress,
        lifetime: DSUServer.subscriptionLifetime, confirmationDelay: DSUServer.confirmationDelay,
        pingInterval: DSUServer.pingInterval)
    // `clients` is read on every packet; unchecked, it and `slots` skip the
    // run-time exclusivity checks. No access can overlap another: both are private, everything
    // runs on the main thread, and nothing the server calls while it holds one (the pad mapper,
    // the client table's own methods, the socket) reaches back. Each slot keeps its own state
    // (`DSUSlot`); a packet reaches the server with its slot, not through this array.
    @exclusivity(unchecked) private var slots: [DSUSlot] = []
    /// One buffer for what is read and one for what is sent: the packet path allocates nothing.
    /// Allocated once the socket is bound: an init that throws before every property is set runs
    /// no deinit, so a buffer allocated sooner would leak.
    private let receiveBuffer: UnsafeMutableRawBufferPointer
    private let sendBuffer: UnsafeMutableRawBufferPointer
    /// The controller-information message an unconfirmed subscriber is pinged with: apart, as
    /// `sendBuffer` may hold the packet's data message for the clients after it.
    private let pingBuffer: UnsafeMutableRawBufferPointer
    /// The slots of controllers handed over while four others held the four, oldest first.
    private var waiting: [DSUSlot] = []
    /// The controllers logged as having no slot: each is named once.
    private var loggedWithoutSlot: Set<String> = []
    private let log: LogSink

    /// Binds `address` and reads it on `reactor`; subscriptions are timed by `clock` (the loop's
    /// when nil); lines go to `log` (`Log.sink` when nil). A port in use is a `DSUSocketError`
    /// that says so.
    public init(
        listeningOn address: DSUListenAddress, reactor: Reactor, clock: (any DeadlineScheduler)? = nil, log: LogSink? = nil
    ) throws(DSUSocketError) {
        self.log = log ?? Log.sink
        let socket = try UDPSocket(binding: address)
        self.address = DSUListenAddress(octets: address.octets, port: socket.port)
        self.socket = consume socket
        self.clock = clock ?? reactor
        serverID = UInt32.random(in: 1...UInt32.max)
        receiveBuffer = .allocate(byteCount: 2048, alignment: 8)
        sendBuffer = .allocate(byteCount: DSUReply.controllerDataLength, alignment: 8)
        pingBuffer = .allocate(byteCount: DSUReply.controllerInfoLength, alignment: 8)
        do {
            // Unowned, not weak: nothing refers to the server weakly, so retaining it on every
            // packet takes the runtime's fast path. `deinit` cancels the watch, and the reactor
            // never calls a cancelled watch.
            watch = try reactor.watch(self.socket.descriptor.rawValue, interest: .readable) { [unowned self] events in
                if events.contains(.error) { readSendErrors() }
                readDatagrams()
            }
        } catch {
            throw DSUSocketError(call: "epoll_ctl", address: address, code: error.code)
        }
    }

    isolated deinit {
        watch?.cancel()
        for slot in slots { slot.serverGone() }
        for slot in waiting { slot.serverGone() }
        receiveBuffer.deallocate()
        sendBuffer.deallocate()
        pingBuffer.deallocate()
    }

    /// How many clients hold a live subscription now.
    public var clientCount: Int {
        let now = clock.now
        return clients.clients.filter { $0.lastSubscribed > now }.count
    }

    /// Its address, its live clients (what each is subscribed to, how long since it asked) and
    /// what it dropped, now.
    public var status: DSUServerStatus {
        let now = clock.now
        let live = clients.clients.indices.filter { clients.clients[$0].lastSubscribed > now }.map { index in
            let client = clients.clients[index]
            return DSUServerStatus.Client(
                peer: client.peer.description, subscriptions: client.subscriptions(at: now),
                secondsSinceLastRequest: (now - client.lastRequest).seconds, confirmed: clients.isConfirmed(at: index, now: now))
        }
        return DSUServerStatus(
            address: address, clients: live, dropped: statistics.dropped, evictedClients: statistics.evictedClients,
            refusedRequests: statistics.refusedRequests)
    }

    /// The consumer that feeds the controller at `address` into its slot (the one it had before,
    /// if it had one: the same consumer); nil when four other controllers hold the four slots.
    public func consumer(forController address: String) -> (any ControllerConsumer)? {
        slot(forController: address.uppercased())
    }

    /// Attaches `feed`'s controller to its slot and takes the feed's state (connected, battery)
    /// as it is now; again for the same feed changes nothing. When four other controllers hold
    /// the slots, the controller waits for one (see above).
    public func attach(_ feed: ControllerFeed) {
        let address = feed.address.uppercased()
        if let slot = slot(forController: address) ?? waiting.first(where: { $0.address == address }) {
            bind(slot, to: feed)
            return
        }
        let slot = DSUSlot(address: address, number: 0, server: self)
        slot.holdsSlot = false
        waiting.append(slot)
        bind(slot, to: feed)
        giveFreedSlots()
    }

    /// The slot of the controller at `address` (made now if a slot is left); nil, logged once
    /// for each controller, when four others hold them.
    private func slot(forController address: String) -> DSUSlot? {
        if let slot = slots.first(where: { $0.address == address }) { return slot }
        guard slots.count < DSUProtocol.slotCount else {
            if loggedWithoutSlot.insert(address).inserted {
                let holders = slots.map(\.address).joined(separator: ", ")
                log.warning("dsu: \(address) has no DSU slot: \(holders) hold the four; it gets the first whose controller disconnects")
            }
            return nil
        }
        let slot = DSUSlot(address: address, number: slots.count, server: self)
        slots.append(slot)
        return slot
    }

    private func bind(_ slot: DSUSlot, to feed: ControllerFeed) {
        feed.attach(slot)
        slot.connected = feed.isConnected
        if let percent = feed.batteryPercent { slot.batteryChanged(percent: percent, at: .zero) }
    }

    /// Gives each slot whose controller is away to a connected controller that waits, the one
    /// that waited longest first; the controller that held it waits in turn.
    func giveFreedSlots() {
        while let waiterIndex = waiting.firstIndex(where: \.connected),
              let number = slots.firstIndex(where: { !$0.connected }) {
            let slot = waiting.remove(at: waiterIndex)
            let previous = slots[number]
            previous.holdsSlot = false
            waiting.append(previous)
            slot.number = number
            slot.holdsSlot = true
            slots[number] = slot
            log.info("dsu: \(slot.address) takes DSU slot \(number) from \(previous.address), which disconnected")
        }
    }

    /// What slot `slot` shows a controller-info request.
    func info(forSlot slot: Int) -> DSUControllerInfo {
        guard slot < slots.count else { return .empty(slot: UInt8(slot)) }
        return slots[slot].info
    }

    // MARK: From the controllers

    /// Sends the packet's state to every client subscribed to `slot` (`DSUSlot` calls this).
    ///
    /// The packet is mapped and encoded only when a client is sent it: with nobody subscribed
    /// (DSU on, no emulator running) the slot only counts it.
    func receive(_ packet: DaydreamPacket, from slot: DSUSlot, at time: MonotonicTime) {
        var encoded = false
        if !clients.clients.isEmpty {
            let now = clock.now
            // By index: the table is changed in place (an unconfirmed peer's bytes), never copied.
            for index in clients.clients.indices where clients.clients[index].wants(slot: slot.number, mac: slot.mac, at: now) {
                guard clients.pays(DSUReply.controllerDataLength, at: index, now: now) else {
                    statistics.withheld += 1
                    if clients.paysPing(DSUReply.controllerInfoLength, at: index, now: now) {
                        DSUReply.encodeControllerInfo(slot.info, serverID: serverID, into: pingBuffer)
                        send(pingBuffer, length: DSUReply.controllerInfoLength, to: clients.clients[index].peer)
                    }
                    continue
                }
                if !encoded {
                    let pad = slot.mapper.update(with: packet, receivedAt: time)
                    DSUReply.encodeControllerData(slot.info, pad, serverID: serverID, into: sendBuffer)
                    encoded = true
                }
                send(sendBuffer, length: DSUReply.controllerDataLength, to: clients.clients[index].peer)
            }
        }
        if !encoded { slot.mapper.skip(packet) }
    }

    // MARK: From the clients

    private func readDatagrams() {
        for _ in 0..<Self.datagramsPerTurn {
            guard let (length, peer) = socket.receive(into: receiveBuffer) else { return }
            statistics.received += 1
            let datagram = UnsafeRawBufferPointer(rebasing: receiveBuffer[0..<min(length, receiveBuffer.count)])
            // A datagram longer than the buffer is cut: its full length still says "oversized".
            guard length <= DSUProtocol.maximumMessageLength else {
                statistics.dropped.count(.oversized)
                continue
            }
            do {
                handle(try DSURequest(datagram: datagram), of: length, from: peer)
            } catch {
                statistics.dropped.count(error)
            }
        }
    }

    /// Answers `request`, `length` bytes from `peer`, with what it has paid for (see above).
    private func handle(_ request: DSURequest, of length: Int, from peer: UDPPeer) {
        let now = clock.now
        guard let (index, admission) = clients.note(peer, bytes: length, at: now) else {
            statistics.refusedRequests += 1
            return
        }
        statistics.requests += 1
        if admission == .replaced { statistics.evictedClients += 1 }
        switch request.kind {
        case .version:
            DSUReply.encodeVersion(serverID: serverID, into: sendBuffer)
            reply(length: DSUReply.versionLength, to: index, at: now)
        case .controllerInfo(let requested):
            for slot in requested {
                DSUReply.encodeControllerInfo(info(forSlot: Int(slot)), serverID: serverID, into: sendBuffer)
                reply(length: DSUReply.controllerInfoLength, to: index, at: now)
            }
        case .controllerData(let subscription):
            clients.subscribe(at: index, to: subscription, at: now)
        }
    }

    /// Sends the reply in `sendBuffer` to the peer at `index` if it is paid for.
    private func reply(length: Int, to index: Int, at now: MonotonicTime) {
        guard clients.pays(length, at: index, now: now) else {
            statistics.withheld += 1
            return
        }
        send(sendBuffer, length: length, to: clients.clients[index].peer)
    }

    /// Forgets the clients an ICMP error says nobody reads at (a closed port, a forged address).
    private func readSendErrors() {
        for _ in 0..<Self.datagramsPerTurn {
            guard let error = socket.nextSendError() else { return }
            if error.unreachable && clients.remove(error.peer) {
                statistics.unreachableClients += 1
            }
        }
    }

    private func send(_ buffer: UnsafeMutableRawBufferPointer, length: Int, to peer: UDPPeer) {
        if socket.send(UnsafeRawBufferPointer(rebasing: buffer[0..<length]), to: peer) {
            statistics.sent += 1
        } else {
            statistics.sendFailures += 1
        }
    }
}
