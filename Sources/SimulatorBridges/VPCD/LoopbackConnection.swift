import SystemSupport

/// The card's TCP connection to the `vpcd` driver: a client socket to 127.0.0.1 only, speaking
/// the framing of ``VirtualPCDMessage``. Owned by one thread.
///
/// Debian's vpcd writes a message's length and payload in two `send` calls on a socket without
/// `TCP_NODELAY`, so the second waits for the card's delayed acknowledgement (about 40 ms per
/// APDU). Setting `TCP_QUICKACK` before every receive (the kernel clears it again) makes the
/// card acknowledge at once: an APDU through pcscd then takes well under a millisecond.
final class LoopbackConnection {
    private let descriptor: Int32

    /// What waiting for a message brought.
    enum Received {
        case message([UInt8])
        /// The driver closed the connection (pcscd stopped, or it ejected the card).
        case closed
        /// The wake-up pipe was signalled.
        case woken
    }

    /// Connects to 127.0.0.1:`port`.
    ///
    /// - Throws: ``SimulatorBridgeError/Code/systemFailure`` when nothing listens there (pcscd
    ///   with the vpcd driver not running) or the socket cannot be made.
    init(port: UInt16) throws(SimulatorBridgeError) {
        let socketType = Int32(bitPattern: UInt32(SOCK_STREAM.rawValue) | UInt32(SOCK_CLOEXEC.rawValue))
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw SystemCalls.failure("create a socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = SystemCalls.failure("connect to 127.0.0.1:\(port)")
            close(descriptor)
            throw error
        }
        SystemCalls.setOption(descriptor, level: Int32(IPPROTO_TCP), name: SystemCalls.tcpNoDelay, value: 1)
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Waits for the next message, or until `wakeup` is signalled between messages.
    func receive(wakingOn wakeup: Wakeup) -> Received {
        var header: [UInt8] = []
        guard case .complete = read(into: &header, count: 2, wakeup: wakeup, atMessageStart: true) else {
            return header.isEmpty && lastReadWasWakeup ? .woken : .closed
        }
        let length = Int(header[0]) << 8 | Int(header[1])
        var payload: [UInt8] = []
        guard length > 0, case .complete = read(into: &payload, count: length, wakeup: wakeup, atMessageStart: false)
        else { return .closed }
        return .message(payload)
    }

    /// Sends one message (length and payload in a single write); false when the connection broke.
    func send(_ payload: [UInt8]) -> Bool {
        guard let frame = VirtualPCDMessage.framed(payload) else { return false }
        var sent = 0
        while sent < frame.count {
            let result = frame.withUnsafeBytes { buffer in
                SystemCall.send(
                    descriptor, from: UnsafeRawBufferPointer(rebasing: buffer[sent...]), flags: Int32(MSG_NOSIGNAL))
            }
            guard case .success(let count) = result, count > 0 else { return false }
            sent += count
        }
        return true
    }

    private enum ReadResult {
        case complete
        case failed
    }

    private var lastReadWasWakeup = false

    /// How long the rest of a message may take once its first byte came, in milliseconds.
    static let messageMilliseconds: Int32 = 5000

    /// Reads exactly `count` bytes, setting `TCP_QUICKACK` before every `recv`. A wake-up ends
    /// the read only at the start of a message; within a message only the socket is watched,
    /// and a driver that stops sending half-way ends the connection.
    private func read(into bytes: inout [UInt8], count: Int, wakeup: Wakeup, atMessageStart: Bool) -> ReadResult {
        lastReadWasWakeup = false
        var chunk = [UInt8](repeating: 0, count: min(count, 65_536))
        while bytes.count < count {
            let waitsForStart = atMessageStart && bytes.isEmpty
            let ready =
                waitsForStart
                ? SystemCalls.waitReadable([descriptor, wakeup.readEnd], milliseconds: -1)
                : SystemCalls.waitReadable([descriptor], milliseconds: Self.messageMilliseconds)
            if waitsForStart, ready.contains(wakeup.readEnd), !ready.contains(descriptor) {
                lastReadWasWakeup = true
                return .failed
            }
            guard ready.contains(descriptor) else { return .failed }
            SystemCalls.setOption(
                descriptor, level: Int32(IPPROTO_TCP), name: SystemCalls.tcpQuickAck, value: 1)
            let wanted = count - bytes.count
            let result = valueOrErrno {
                chunk.withUnsafeMutableBytes { buffer in
                    recv(descriptor, buffer.baseAddress, min(wanted, buffer.count), Int32(MSG_NOSIGNAL))
                }
            }
            if case .failure(.wouldBlock) = result { continue }
            guard case .success(let received) = result, received > 0 else { return .failed }
            bytes.append(contentsOf: chunk.prefix(received))
        }
        return .complete
    }
}

/// One message of the `vpcd` wire protocol (vsmartcard 3.3, `vpcd.c`), from the reader driver
/// inside pcscd to the card.
///
/// Every message in either direction is a 2-byte big-endian length and that many bytes. A
/// 1-byte message is a control message: 00 power off, 01 power on, 02 reset, 04 get ATR;
/// a longer one is a command APDU. The card answers get ATR with its ATR and a command APDU
/// with the response APDU, and nothing else. A message of length 0 ends the card's
/// connection on the driver's side, so a card never sends one.
enum VirtualPCDMessage: Sendable, Hashable {
    case powerOff
    case powerOn
    case reset
    case getATR
    /// A control message this protocol does not define: ignored.
    case unknownControl(UInt8)
    case apdu([UInt8])

    /// The message a payload carries.
    init(payload: [UInt8]) {
        guard payload.count == 1, let code = payload.first else {
            self = .apdu(payload)
            return
        }
        switch code {
        case 0x00: self = .powerOff
        case 0x01: self = .powerOn
        case 0x02: self = .reset
        case 0x04: self = .getATR
        default: self = .unknownControl(code)
        }
    }

    /// The largest payload a length prefix can announce.
    static let maximumPayload = 0xFFFF

    /// `payload` with its length prefix; nil when it is empty or longer than ``maximumPayload``.
    static func framed(_ payload: [UInt8]) -> [UInt8]? {
        guard !payload.isEmpty, payload.count <= maximumPayload else { return nil }
        return [UInt8(truncatingIfNeeded: payload.count >> 8), UInt8(truncatingIfNeeded: payload.count)] + payload
    }
}
