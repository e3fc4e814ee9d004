import SystemSupport
import TestSupport
import Testing

/// The driver side of the vpcd protocol, as vsmartcard's `vpcd.c` has it: a TCP server on
/// 127.0.0.1 that accepts the card and sends it length-prefixed messages. For tests of
/// ``VirtualPCDCard`` without pcscd; every wait has a time limit and runs on a thread of its own
/// (`BlockingCall.run` (SystemSupport)), never on the cooperative pool.
///
/// One test drives a server, one call after the other (each awaited before the next): the
/// descriptors are not guarded further.
final class FakeVirtualPCD: @unchecked Sendable {
    private let listener: Int32
    private var client: Int32 = -1
    /// The port the server listens on.
    let port: UInt16

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A server on a free port; `listening` false binds the port without listening (a card
    /// connecting is refused) until ``listen()``.
    init(listening: Bool = true) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        guard bound == 0 else { throw Failure(description: "bind") }
        if listening { try listen() }
    }

    deinit {
        if client >= 0 { close(client) }
        close(listener)
    }

    /// Starts accepting connections.
    func listen() throws {
        guard listenOnSocket(listener, 1) == 0 else { throw Failure(description: "listen") }
    }

    /// Waits up to `milliseconds` for the card to connect.
    func accept(within milliseconds: Int32 = 120_000) async throws {
        try await BlockingCall.run { () throws(Failure) in
            guard self.isReadable(self.listener, milliseconds) else {
                throw Failure(description: "no card connected in time")
            }
            if self.client >= 0 { close(self.client) }
            self.client = acceptOnSocket(self.listener)
            guard self.client >= 0 else { throw Failure(description: "accept") }
        }
    }

    /// Sends one message and returns the answer (nil: the card closed the connection).
    func exchange(_ payload: [UInt8], within milliseconds: Int32 = 120_000) async throws -> [UInt8]? {
        try send(payload)
        return try await receive(within: milliseconds)
    }

    /// Sends one message (length and payload in two writes, as Debian's vpcd does). A few bytes
    /// into an empty socket buffer: the writes return at once.
    func send(_ payload: [UInt8]) throws {
        let header: [UInt8] = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        for part in [header, payload] {
            let sent = part.withUnsafeBytes {
                (try? SystemCall.send(client, from: $0, flags: Int32(MSG_NOSIGNAL)).get()) ?? -1
            }
            guard sent == part.count else { throw Failure(description: "send") }
        }
    }

    /// The next message from the card; nil when it closed the connection.
    func receive(within milliseconds: Int32 = 120_000) async throws -> [UInt8]? {
        try await BlockingCall.run { () throws(Failure) -> [UInt8]? in
            guard let header = try self.read(2, milliseconds) else { return nil }
            let length = Int(header[0]) << 8 | Int(header[1])
            return try self.read(length, milliseconds)
        }
    }

    /// Whether the card closes the connection within `milliseconds` (without sending anything).
    func sawClose(within milliseconds: Int32 = 120_000) async throws -> Bool {
        try await BlockingCall.run { () throws(Failure) -> Bool in try self.read(1, milliseconds) == nil }
    }

    /// Blocks: called through `BlockingCall.run` (SystemSupport) only.
    private func read(_ count: Int, _ milliseconds: Int32) throws(Failure) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(count, 1))
        while bytes.count < count {
            guard isReadable(client, milliseconds) else {
                throw Failure(description: "the card did not answer in time")
            }
            let got = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, count - bytes.count, 0) }
            if got <= 0 { return nil }
            bytes += chunk.prefix(got)
        }
        return bytes
    }

    /// Blocks: called through `BlockingCall.run` (SystemSupport) only.
    private func isReadable(_ descriptor: Int32, _ milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }
}

/// The C library's `listen` and `accept`, which the methods of the same names hide.
private func listenOnSocket(_ socket: Int32, _ backlog: Int32) -> Int32 { listen(socket, backlog) }
private func acceptOnSocket(_ socket: Int32) -> Int32 { accept(socket, nil, nil) }
