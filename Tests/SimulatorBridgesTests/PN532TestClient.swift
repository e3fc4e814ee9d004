import Foundation
import Glibc
import Testing

/// A serial-port client of the simulated PN532, as a host program opens it: the pty slave
/// (through the link), raw mode, non-blocking reads with a deadline. Writes bytes exactly as
/// given, so that tests can send split frames, bad checksums and noise.
final class PN532TestClient {
    private let descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Opens `path` (the link or the slave) in raw mode.
    init(path: String) throws {
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(path): errno \(errno)") }
        var modes = termios()
        tcgetattr(descriptor, &modes)
        cfmakeraw(&modes)
        tcsetattr(descriptor, TCSANOW, &modes)
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes `bytes` (hex) as they are.
    func write(_ bytes: String) throws {
        let data = hex(bytes)
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count else { throw Failure(description: "short write (\(written))") }
    }

    /// Reads until `count` bytes came or `milliseconds` passed; the bytes as hex.
    func read(_ count: Int, milliseconds: Int = 2000) -> String {
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
        while bytes.count < count {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let wait = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&entry, 1, wait) > 0 else { break }
            var chunk = [UInt8](repeating: 0, count: count - bytes.count)
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got > 0 { bytes += chunk.prefix(got) }
        }
        return text(bytes)
    }

    /// Whatever arrives within `milliseconds`, as hex.
    func readAll(milliseconds: Int) -> String {
        read(1 << 16, milliseconds: milliseconds)
    }

    /// Sends the information frame `information` (hex, TFI first) and returns the ACK and
    /// the response frame that follow, as hex.
    func command(_ information: String) throws -> (ack: String, response: String) {
        let payload = hex(information)
        let length = UInt8(payload.count)
        let checksum = payload.reduce(UInt8(0), &+)
        try write("0000FF" + text([length, 0 &- length]) + information + text([0 &- checksum]) + "00")
        let ack = read(6)
        let header = read(5)
        let lengthByte = hex(header).dropFirst(3).first.map(Int.init) ?? 0
        let rest = read(lengthByte + 2)
        return (ack, header + rest)
    }
}

/// A fresh folder under the temporary directory, removed with the value.
final class ScratchDirectory {
    let path: String

    init(_ prefix: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside.
    func file(_ name: String) -> String { path + "/" + name }
}
