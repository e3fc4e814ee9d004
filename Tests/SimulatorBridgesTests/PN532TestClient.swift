import Foundation
import SystemSupport
import TestSupport
import Testing

/// A serial-port client of the simulated PN532, as a host program opens it: the pty slave
/// (through the link), raw mode, non-blocking reads. Writes bytes exactly as given, so that
/// tests can send split frames, bad checksums and noise.
///
/// Reads never block a thread: a read that finds nothing returns at once, and the client waits
/// for more with `Task.sleep`.
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

    /// Writes `bytes` (hex) as they are (a few bytes into the terminal's buffer: at once).
    func write(_ bytes: String) throws {
        let data = hex(bytes)
        let written = data.withUnsafeBytes { (try? SystemCall.write(descriptor, from: $0).get()) ?? -1 }
        guard written == data.count else { throw Failure(description: "short write (\(written))") }
    }

    /// Reads until `count` bytes came or `timeout` passed; the bytes as hex. Bytes that are
    /// expected get a long time (they come as soon as the simulator's thread runs).
    func read(_ count: Int, within timeout: Duration = .seconds(120)) async -> String {
        var bytes: [UInt8] = []
        _ = await eventually(within: timeout, every: .milliseconds(1)) {
            bytes += readAvailable(count - bytes.count)
            return bytes.count >= count
        }
        return hexText(bytes)
    }

    /// Whatever arrives within `window`, as hex: for checks that nothing comes.
    func readAll(within window: Duration) async -> String {
        var bytes: [UInt8] = []
        _ = await eventually(within: window, every: .milliseconds(1)) {
            bytes += readAvailable(1 << 16)
            return false
        }
        return hexText(bytes)
    }

    /// Sends the information frame `information` (hex, TFI first) and returns the ACK and
    /// the response frame that follow, as hex.
    func command(_ information: String) async throws -> (ack: String, response: String) {
        let payload = hex(information)
        let length = UInt8(payload.count)
        let checksum = payload.reduce(UInt8(0), &+)
        try write("0000FF" + hexText([length, 0 &- length]) + information + hexText([0 &- checksum]) + "00")
        let ack = await read(6)
        let header = await read(5)
        let lengthByte = hex(header).dropFirst(3).first.map(Int.init) ?? 0
        let rest = await read(lengthByte + 2)
        return (ack, header + rest)
    }

    /// Up to `count` bytes that are there now (a non-blocking read: none when nothing came).
    private func readAvailable(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var chunk = [UInt8](repeating: 0, count: count)
        let got = chunk.withUnsafeMutableBytes { (try? SystemCall.read(descriptor, into: $0).get()) ?? -1 }
        return got > 0 ? Array(chunk.prefix(got)) : []
    }
}
