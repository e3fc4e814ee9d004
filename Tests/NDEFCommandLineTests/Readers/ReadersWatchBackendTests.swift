import CommandLineKit
import Foundation
import NFCSession
import PCSCReader
import Synchronization
import TestSupport
import Testing

@testable import NDEFCommandLine

/// `readers --watch` when pcscd is not running, starts or stops, and libnfc's devices come and go
/// (listed again at each interval): in process, with pcscd and libnfc as the tests say.
@Suite struct ReadersWatchBackendTests {
    /// Answers that change with each call: the last one repeats.
    final class Answers<Value: Sendable>: Sendable {
        let values: [Value]
        let calls = Mutex(0)

        init(_ values: [Value]) { self.values = values }

        func next() -> Value {
            calls.withLock { count in
                defer { count += 1 }
                return values[min(count, values.count - 1)]
            }
        }
    }

    /// Runs the watch for `milliseconds`, pcscd asked again and libnfc listed every 20 ms; the
    /// exit status.
    /// Runs `readers --watch` for `milliseconds`, or, with `until`, until it holds (at most 30 s:
    /// a loaded machine may run the watch's tasks late).
    static func watch(
        _ io: TestIO, milliseconds: Int, arguments: [String] = [], until: (@Sendable () -> Bool)? = nil
    ) async throws -> Int32 {
        let values: ParsedValues
        switch try CommandParser(root: RootCommand.spec).parse(["readers", "--watch"] + arguments) {
        case .run(_, let parsed): values = parsed
        default: values = ParsedValues(for: ReadersCommand.spec)
        }
        let status = try await ReadersWatch.run(
            CommandInvocation(path: [], values: values, io: io), json: false,
            stop: {
                guard let until else {
                    try? await Task.sleep(for: .milliseconds(milliseconds))
                    return
                }
                // A bound for a test that fails; the condition is an event of the watch.
                let deadline = ContinuousClock.now.advanced(by: .seconds(300))
                while !until(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
            }, rescan: .milliseconds(20),
            retry: .milliseconds(20))
        return status.rawValue
    }

    /// Lines of `text`.
    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test("pcscd not running: said once, libnfc devices still come and go, exit 0 at the stop")
    func pcscdDownKeepsWatchingLibNFC() async throws {
        let io = TestIO()
        let lists = Answers([
            ["pn532_uart:/dev/a"], ["pn532_uart:/dev/a", "acr122_usb:001:004"], ["acr122_usb:001:004"],
        ])
        io.libnfc = LibNFCDirectory(connstrings: { () throws(NFCReaderError) in lists.next() })
        #expect(try await Self.watch(io, milliseconds: 1000, until: { lists.calls.withLock { $0 } >= 4 }) == 0)
        #expect(
            Self.lines(io.outputText) == [
                "reader added    libnfc  pn532_uart:/dev/a  (libnfc:pn532_uart:/dev/a)",
                "reader added    libnfc  acr122_usb:001:004  (libnfc:acr122_usb:001:004)",
                "reader removed  libnfc  pn532_uart:/dev/a",
            ])
        let errors = Self.lines(io.error)
        #expect(errors.count == 2, "\(io.error)")
        #expect(errors.first == "PC/SC readers cannot be watched: pcscd is not running")
        #expect(errors.last?.hasPrefix("Watching on: PC/SC readers show once pcscd runs") == true)
        // -q leaves the notes out; the changes stay.
        let quiet = TestIO()
        let once = Answers([["pn532_uart:/dev/a"]])
        quiet.libnfc = LibNFCDirectory(connstrings: { () throws(NFCReaderError) in once.next() })
        #expect(
            try await Self.watch(
                quiet, milliseconds: 100, arguments: ["-q"], until: { once.calls.withLock { $0 } >= 2 })
                == 0)
        #expect(quiet.error.isEmpty)
        #expect(quiet.outputText == "reader added    libnfc  pn532_uart:/dev/a  (libnfc:pn532_uart:/dev/a)\n")
    }

    @Test("pcscd starting later is picked up; stopping takes its readers away, said once")
    func pcscdComesAndGoes() async throws {
        let io = TestIO()
        // Calls 1-2: not running; call 3: Reader 0 until its card watch told "no tag", then pcscd
        // stops; later calls: not running.
        let calls = Mutex(0)
        let cardToldEmpty = TestFlag()
        var directory = fakePCSC([])
        directory.watchReaders = {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            return AsyncThrowingStream { continuation in
                guard call == 3 else {
                    continuation.finish(throwing: NFCReaderError(.readerUnavailable, "pcscd is not running"))
                    return
                }
                continuation.yield(.added("Reader 0"))
                Task {
                    _ = await eventually { cardToldEmpty.isRaised }
                    continuation.finish(throwing: NFCReaderError(.readerUnavailable, "pcscd stopped"))
                }
            }
        }
        // One "empty" event; asked for the next one, the watch has handled it: then nothing more
        // until the watch is cancelled.
        directory.watchCard = { name in
            let handedOut = TestFlag()
            return AsyncThrowingStream {
                if handedOut.raise() {
                    return PCSCCardEvent(readerName: name, presence: .empty, atr: [], eventCount: 0)
                }
                cardToldEmpty.raise()
                try await Task.sleep(for: .seconds(3600))
                return nil
            }
        }
        io.pcsc = directory
        #expect(try await Self.watch(io, milliseconds: 1200, until: { calls.withLock { $0 } >= 5 }) == 0)
        #expect(
            Self.lines(io.outputText) == [
                "reader added    pcsc    Reader 0  (pcsc:Reader%200)", "no tag          pcsc    Reader 0",
                "reader removed  pcsc    Reader 0",
            ])
        let errors = Self.lines(io.error)
        #expect(errors.filter { $0.hasPrefix("PC/SC readers cannot be watched: ") }.count == 2, "\(io.error)")
        #expect(errors.contains("pcscd is running: watching its readers."))
        #expect(calls.withLock { $0 } >= 4)
    }

    @Test("A libnfc device missing from the list but still attached (held by another program) is not removed")
    func heldDeviceStays() async throws {
        let lists = Answers([["acr122_usb:001:004"], []])
        let held = TestIO()
        held.libnfc = LibNFCDirectory(
            connstrings: { () throws(NFCReaderError) in lists.next() }, isAttached: { _ in true })
        #expect(try await Self.watch(held, milliseconds: 500, until: { lists.calls.withLock { $0 } >= 3 }) == 0)
        #expect(!held.outputText.contains("reader removed"))
        let failing = Answers([["acr122_usb:001:004"], []])
        let gone = TestIO()
        gone.libnfc = LibNFCDirectory(connstrings: { () throws(NFCReaderError) in failing.next() })
        #expect(try await Self.watch(gone, milliseconds: 500, until: { failing.calls.withLock { $0 } >= 3 }) == 0)
        #expect(gone.outputText.contains("reader removed  libnfc  acr122_usb:001:004\n"))
    }

    @Test("libnfc failing later is said once; the watch goes on")
    func libnfcFailing() async throws {
        let io = TestIO()
        let calls = Mutex(0)
        io.libnfc = LibNFCDirectory(connstrings: { () throws(NFCReaderError) in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call > 1 { throw NFCReaderError(.readerUnavailable, "libnfc cannot start") }
            return ["pn532_uart:/dev/a"]
        })
        #expect(try await Self.watch(io, milliseconds: 500, until: { calls.withLock { $0 } >= 3 }) == 0)
        #expect(Self.lines(io.error).filter { $0 == "libnfc devices cannot be listed: libnfc cannot start" }.count == 1)
        #expect(!io.outputText.contains("reader removed"))
    }

    @Test("The device file of a libnfc connection string")
    func deviceNodes() {
        #expect(LibNFCDeviceNode.path(of: "acr122_usb:001:004") == "/dev/bus/usb/001/004")
        #expect(LibNFCDeviceNode.path(of: "pn53x_usb:002:010") == "/dev/bus/usb/002/010")
        #expect(LibNFCDeviceNode.path(of: "pn53x_usb") == nil)
        #expect(LibNFCDeviceNode.path(of: "pn53x_usb:x:1") == nil)
        #expect(LibNFCDeviceNode.path(of: "pn532_uart:/dev/ttyUSB0:115200") == "/dev/ttyUSB0")
        #expect(LibNFCDeviceNode.path(of: "pn532_i2c:/dev/i2c-1") == "/dev/i2c-1")
        #expect(LibNFCDeviceNode.path(of: "pn532_uart:ttyUSB0") == nil)
        #expect(LibNFCDeviceNode.exists("pn532_uart:/dev/null"))
        #expect(!LibNFCDeviceNode.exists("pn532_uart:/dev/ndeftool-no-such-device"))
    }
}
