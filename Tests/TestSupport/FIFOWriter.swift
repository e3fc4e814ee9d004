import Foundation
import SystemSupport

/// A named pipe a test writes a child process's standard input through, a piece at a time:
/// the child (started with `ChildProcess.Input.file(path)`) reads what was written so far and
/// waits for more until ``close()``.
///
/// The pipe is opened for reading and writing here (Linux opens a FIFO `O_RDWR` without waiting
/// for a reader), so the child's open never waits either. Writes run on a thread of their own
/// (``SystemSupport/BlockingCall``): a write larger than the pipe's buffer waits for the child
/// to read, and no thread of Swift's cooperative pool waits with it.
public final class FIFOWriter: Sendable {
    /// The pipe's path.
    public let path: String
    private let descriptor: Int32

    /// A new named pipe at `path`.
    public init(path: String) throws {
        guard mkfifo(path, 0o600) == 0 else { throw FIFOError("mkfifo \(path): errno \(errno)") }
        let descriptor = open(path, O_RDWR)
        guard descriptor >= 0 else { throw FIFOError("open \(path): errno \(errno)") }
        self.path = path
        self.descriptor = descriptor
    }

    /// Writes all of `bytes`, waiting (off the cooperative pool) while the pipe is full.
    public func write(_ bytes: [UInt8]) async throws {
        let descriptor = self.descriptor
        let failure = await BlockingCall.run { () -> String? in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes {
                    Foundation.write(descriptor, $0.baseAddress, $0.count)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return "write: errno \(errno)"
                }
                offset += written
            }
            return nil
        }
        if let failure { throw FIFOError(failure) }
    }

    /// `lines`, each with its line break.
    public func write(lines: [String]) async throws {
        try await write(Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Closes the writing end: the reader sees the end of its input.
    public func close() { _ = Foundation.close(descriptor) }
}

/// A failure of ``FIFOWriter``.
public struct FIFOError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
