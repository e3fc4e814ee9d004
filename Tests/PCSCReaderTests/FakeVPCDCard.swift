import Foundation

@testable import PCSCReader

/// A minimal NTAG215 behind vpcd, for the card-present tests until the project's card bridge
/// serves real simulated tags: it speaks vpcd's socket protocol (2-byte big-endian length, then
/// a 1-byte control message or an APDU; test-stacks.md part A) and answers GET DATA, part 3 READ
/// / UPDATE BINARY, and ACR122U Direct Transmit of PN532 ReadRegister, WriteRegister and
/// InCommunicateThru as a PN532 with an NTAG215 in its field would.
///
/// Like the PN532, it checks the tag's CRC itself while CIU_RxMode bit 7 is set (the state after
/// activation) and then reports a 4-bit ACK or NAK as status 02h (CRC error); with the bit
/// cleared it returns answers with their CRC_A and 4-bit answers as one byte. A NAK sends the tag
/// to IDLE: InCommunicateThru times out (status 01h) until vpcd resets or powers the card.
final class FakeVPCDCard: @unchecked Sendable {
    static let atr: [UInt8] = [
        0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00,
        0x00, 0x68,
    ]
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let version: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]
    static let pageCount = 135

    private let lock = NSLock()
    private var memory: [UInt8]
    private var rxMode: UInt8 = 0x80
    private var isIdle = false
    private var socket: Int32 = -1
    private let done = DispatchSemaphore(value: 0)
    /// The APDUs received, in order.
    private(set) var apdus: [[UInt8]] = []

    /// Whether the PN532 register commands are answered (a reader without them keeps its CRC check).
    private let answersRegisters: Bool

    /// A card that connects to vpcd on 127.0.0.1:`port`, retrying until vpcd listens.
    init(port: UInt16, answersRegisters: Bool = true) throws {
        self.answersRegisters = answersRegisters
        let uid = Self.uid
        var pages = [UInt8](repeating: 0, count: Self.pageCount * 4)
        pages[0..<16] = [
            uid[0], uid[1], uid[2], 0x88 ^ uid[0] ^ uid[1] ^ uid[2], uid[3], uid[4], uid[5], uid[6],
            uid[3] ^ uid[4] ^ uid[5] ^ uid[6], 0x48, 0x00, 0x00, 0xE1, 0x10, 0x3E, 0x00,
        ]
        pages[16..<20] = [0x03, 0x00, 0xFE, 0x00]
        pages[0x83 * 4..<0x85 * 4] = [0x04, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00]
        memory = pages
        let deadline = Date().addingTimeInterval(5)
        while socket < 0 {
            let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result == 0 {
                socket = fd
            } else {
                close(fd)
                guard Date() < deadline else { throw CardError.cannotConnect(port) }
                usleep(20_000)
            }
        }
        Thread { [self] in serve() }.start()
    }

    /// Takes the card away (closes the socket) and waits for the serving thread.
    func remove() {
        lock.lock()
        let fd = socket
        lock.unlock()
        guard fd >= 0 else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        done.wait()
    }

    /// A copy of page `page`.
    func page(_ page: Int) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return Array(memory[page * 4..<page * 4 + 4])
    }

    /// The APDUs received so far.
    var received: [[UInt8]] {
        lock.lock()
        defer { lock.unlock() }
        return apdus
    }

    enum CardError: Error { case cannotConnect(UInt16) }

    private func serve() {
        defer {
            lock.lock()
            close(socket)
            socket = -1
            lock.unlock()
            done.signal()
        }
        while let message = receive() {
            if message.count == 1 {
                switch message[0] {
                case 0x04: send(Self.atr)
                case 0x01, 0x02:
                    lock.withLock {
                        isIdle = false
                        rxMode = 0x80
                    }
                default: break
                }
            } else {
                let answer = lock.withLock { () -> [UInt8] in
                    apdus.append(message)
                    return respond(to: message)
                }
                send(answer)
            }
        }
    }

    private func receive() -> [UInt8]? {
        guard let header = read(2) else { return nil }
        return read(Int(header[0]) << 8 | Int(header[1]))
    }

    private func read(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            var one: Int32 = 1
            setsockopt(socket, Int32(IPPROTO_TCP), 12, &one, socklen_t(MemoryLayout<Int32>.size))  // TCP_QUICKACK
            let n = bytes.withUnsafeMutableBytes { buffer in
                recv(socket, buffer.baseAddress.map { $0 + got }, count - got, 0)
            }
            guard n > 0 else { return nil }
            got += n
        }
        return bytes
    }

    private func send(_ payload: [UInt8]) {
        let frame = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        _ = frame.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, frame.count, Int32(MSG_NOSIGNAL)) }
    }

    // MARK: - The reader and the tag

    private func respond(to apdu: [UInt8]) -> [UInt8] {
        guard apdu.count >= 5, apdu[0] == 0xFF else { return [0x6E, 0x00] }
        let page = Int(apdu[3])
        switch (apdu[1], apdu[2]) {
        case (0xCA, 0x00):
            return Self.uid + [0x90, 0x00]
        case (0xB0, 0x00):
            guard !isIdle, page < Self.pageCount else { return [0x63, 0x00] }
            return read(page: page) + [0x90, 0x00]
        case (0xD6, 0x00):
            guard !isIdle, page >= 4, page < Self.pageCount, apdu.count == 9 else { return [0x63, 0x00] }
            memory[page * 4..<page * 4 + 4] = apdu[5..<9]
            return [0x90, 0x00]
        case (0x00, 0x00) where apdu[3] == 0x00:
            return pn532(Array(apdu.dropFirst(5))) ?? [0x6A, 0x81]
        default:
            return [0x6A, 0x81]
        }
    }

    private func pn532(_ command: [UInt8]) -> [UInt8]? {
        if !answersRegisters, command.starts(with: [0xD4, 0x06]) || command.starts(with: [0xD4, 0x08]) { return nil }
        switch Array(command.prefix(2)) {
        case [0xD4, 0x06] where command == [0xD4, 0x06, 0x63, 0x03]: return [0xD5, 0x07, rxMode, 0x90, 0x00]
        case [0xD4, 0x08] where command.count == 5 && command[2...3] == [0x63, 0x03]:
            rxMode = command[4]
            return [0xD5, 0x09, 0x90, 0x00]
        case [0xD4, 0x42]:
            let reply = tag(Array(command.dropFirst(2)))
            switch reply {
            case nil: return [0xD5, 0x43, 0x01, 0x90, 0x00]
            case .some(let bytes) where bytes.count == 1:
                return rxMode & 0x80 != 0
                    ? [0xD5, 0x43, 0x02, 0x90, 0x00] : [0xD5, 0x43, 0x00] + bytes + [0x90, 0x00]
            case .some(let bytes):
                let framed = rxMode & 0x80 != 0 ? bytes : bytes + ShortFrame.crcA(bytes)
                return [0xD5, 0x43, 0x00] + framed + [0x90, 0x00]
            }
        default: return nil
        }
    }

    /// The tag's answer to a frame; nil when it stays silent.
    private func tag(_ frame: [UInt8]) -> [UInt8]? {
        guard !isIdle, let opcode = frame.first else { return nil }
        switch (opcode, frame.count) {
        case (0x60, 1): return Self.version
        case (0x30, 2) where Int(frame[1]) < Self.pageCount: return read(page: Int(frame[1]))
        case (0xA2, 6) where frame[1] >= 4 && Int(frame[1]) < Self.pageCount:
            memory[Int(frame[1]) * 4..<Int(frame[1]) * 4 + 4] = frame[2..<6]
            return [0x0A]
        case (0x3A, 3) where frame[1] <= frame[2] && Int(frame[2]) < Self.pageCount:
            return Array(memory[Int(frame[1]) * 4..<(Int(frame[2]) + 1) * 4])
        default:
            isIdle = true
            return [0x00]
        }
    }

    private func read(page: Int) -> [UInt8] {
        (0..<4).flatMap { offset in
            let start = ((page + offset) % Self.pageCount) * 4
            return memory[start..<start + 4]
        }
    }
}
