import Foundation
import Glibc
import Testing

/// A PC/SC client in another process (`Scripts/lib/pcsc-client.pl`, over Debian's libpcsc-perl)
/// talking to the real pcscd, driven line by line; every answer has a time limit.
final class PCSCClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether the tests may use a pcscd with the vpcd readers: `Scripts/test` starts one and
    /// sets `NDEFTOOL_PCSCD=1`.
    static let isAvailable = ProcessInfo.processInfo.environment["NDEFTOOL_PCSCD"] == "1"

    /// Why the PC/SC tests are skipped, said loudly in the test output.
    static let skipNote: Comment = """
        SKIPPED: no pcscd for the PC/SC tests (NDEFTOOL_PCSCD is not 1). Run Scripts/test as root, \
        which starts a private pcscd with the vpcd readers and sets NDEFTOOL_PCSCD=1.
        """

    /// The first vpcd reader of Debian's configuration (port 35963).
    static let firstReader = "Virtual PCD 00 00"
    /// The second (port 35964).
    static let secondReader = "Virtual PCD 00 01"

    /// The client script, found from this file's path.
    static let script: String = {
        let path = #filePath
        guard let tests = path.range(of: "/Tests/", options: .backwards) else { return "Scripts/lib/pcsc-client.pl" }
        return String(path[..<tests.lowerBound]) + "/Scripts/lib/pcsc-client.pl"
    }()

    /// This process's environment for the client, without a `PCSCLITE_CSOCK_NAME` that other
    /// suites in the same test process set for their own private pcscd: the client talks to the
    /// pcscd of the test run, where the vpcd card connects.
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "PCSCLITE_CSOCK_NAME" }
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        process.arguments = [Self.script]
        process.environment = Self.environment
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    deinit {
        close()
    }

    /// Sends one command line and returns the answer line.
    @discardableResult
    func call(_ line: String, milliseconds: Int32 = 10_000) throws -> String {
        try input.fileHandleForWriting.write(contentsOf: Array((line + "\n").utf8))
        return try readLine(milliseconds)
    }

    /// The response APDU (hex) to `apdu`; throws when the transmission failed.
    func transmit(_ apdu: String) throws -> String {
        let answer = try call("transmit " + apdu)
        guard answer.hasPrefix("ok") else { throw Failure(description: "transmit \(apdu): \(answer)") }
        return String(answer.dropFirst(2)).trimmingCharacters(in: .whitespaces)
    }

    /// Waits until the reader has a card (`present`) or none (`absent`); false on time-out.
    func wait(_ state: String, reader: String = firstReader, milliseconds: Int = 5000) throws -> Bool {
        try call("wait \(state) \(reader) \(milliseconds)", milliseconds: Int32(milliseconds) + 5000).hasPrefix("ok")
    }

    /// Ends the client.
    func close() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.write(contentsOf: Array("quit\n".utf8))
        try? input.fileHandleForWriting.close()
        for _ in 0..<50 where process.isRunning { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    private func readLine(_ milliseconds: Int32) throws -> String {
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                return line
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, milliseconds) > 0 else {
                throw Failure(description: "the PC/SC client did not answer")
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "the PC/SC client ended") }
            buffer += chunk.prefix(count)
        }
    }
}
