import CommandLineKit
import Foundation
import NFCSession
import PCSCReader
import Synchronization
import TestSupport
import Testing

@testable import NDEFCommandLine

/// `ndeftool readers`: numbers, backends, tag state (libnfc unknown unless --probe), the default
/// reader, and --watch with its line per change.
@Suite struct ReadersWatchTests {
    /// A pcscd where `Reader 0` is there, a tag comes and goes on it, then `Reader 1` arrives
    /// and goes; then pcscd's watch ends.
    static func changingPCSC() -> PCSCDirectory {
        var directory = fakePCSC(["Reader 0"])
        // The reader list ends only after Reader 0's card events are all out, however busy the
        // machine (the watch ends with the list).
        let (cardEventsOut, cardEventsOutContinuation) = AsyncStream<Void>.makeStream()
        directory.watchReaders = {
            AsyncThrowingStream { continuation in
                Task {
                    continuation.yield(.added("Reader 0"))
                    try? await Task.sleep(for: .milliseconds(100))
                    continuation.yield(.added("Reader 1"))
                    try? await Task.sleep(for: .milliseconds(100))
                    continuation.yield(.removed("Reader 1"))
                    for await _ in cardEventsOut { break }
                    try? await Task.sleep(for: .milliseconds(100))
                    continuation.finish()
                }
            }
        }
        directory.watchCard = { name in
            guard name == "Reader 0" else {
                return AsyncThrowingStream { continuation in
                    continuation.yield(PCSCCardEvent(readerName: name, presence: .empty, atr: [], eventCount: 0))
                    continuation.finish()
                }
            }
            // Reader 0's events one at a time: asked for one more, the watch has handled the last,
            // and only then does the readers' stream go on (however late the watch runs).
            let events = TestQueue(
                [PCSCCardEvent.Presence.empty, .present, .present, .empty].enumerated().map { count, presence in
                    PCSCCardEvent(readerName: name, presence: presence, atr: [], eventCount: count)
                })
            return AsyncThrowingStream {
                guard let event = events.next() else {
                    cardEventsOutContinuation.yield()
                    return nil
                }
                return event
            }
        }
        return directory
    }

    @Test("readers: numbers for --reader, libnfc's tag unknown, [default] on the remembered reader")
    func listing() async throws {
        // Kept until the test ends: a folder removed before the command writes in it would come back.
        let folder = try TemporaryDirectory("config")
        defer { folder.remove() }
        let io = TestIO(variables: ["XDG_CONFIG_HOME": folder.path("config")])
        #expect(await RememberedReader(io: io).save("libnfc:acr122_usb:001:004") == nil)
        io.pcsc = fakePCSC(["Reader 0", "Reader 1"])
        io.libnfc = fakeLibNFC(["acr122_usb:001:004"], probe: true)
        #expect(await NDEFCommandLine.run(["readers"], io: io) == .success)
        #expect(io.outputText.contains("  1 pcsc    pcsc:0  Reader 0  (no tag)\n"))
        #expect(io.outputText.contains("  2 pcsc    pcsc:1  Reader 1  (tag present)\n"))
        #expect(io.outputText.contains("  3 libnfc  libnfc:acr122_usb:001:004  (libnfc:0, tag unknown)  [default]\n"))
        let probed = TestIO()
        probed.libnfc = io.libnfc
        // pcscd is down (TestIO) but a libnfc device is listed: 0, with pcscd's state as a warning.
        #expect(await NDEFCommandLine.run(["readers", "--probe", "--json"], io: probed) == .success)
        #expect(probed.error.contains("Warning: PC/SC readers cannot be listed"), "\(probed.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(probed.output)) as? [String: Any])
        let readers = try #require(object["readers"] as? [[String: Any]])
        let libnfc = try #require(readers.first { $0["kind"] as? String == "libnfc" })
        #expect(libnfc["tag"] as? String == "present")
        #expect(libnfc["number"] as? Int == 1)
    }

    @Test("readers --watch: a line per reader and tag change, then exit 0 when the watch ends")
    func watchText() async throws {
        let io = TestIO()
        io.pcsc = Self.changingPCSC()
        io.libnfc = fakeLibNFC(["pn532_uart:/dev/x"])
        let status = try await ReadersWatch.run(
            CommandInvocation(path: [], values: ParsedValues(for: ReadersCommand.spec), io: io), json: false,
            stop: { try? await Task.sleep(for: .seconds(300)) })
        #expect(status == .success)
        let lines = io.outputText.split(separator: "\n").map(String.init)
        #expect(lines.first == "reader added    libnfc  pn532_uart:/dev/x  (libnfc:pn532_uart:/dev/x)")
        #expect(lines.contains("reader added    pcsc    Reader 0  (pcsc:Reader%200)"))
        #expect(lines.contains("reader removed  pcsc    Reader 1"))
        let reader0 = lines.filter { $0.hasSuffix("  Reader 0") }
        #expect(
            reader0 == [
                "no tag          pcsc    Reader 0", "tag present     pcsc    Reader 0",
                "no tag          pcsc    Reader 0",
            ])
    }

    @Test("readers --watch --json: one JSON object per line")
    func watchJSON() async throws {
        let io = TestIO()
        io.pcsc = Self.changingPCSC()
        #expect(await NDEFCommandLine.run(["readers", "--watch", "--json"], io: io) == .success)
        let lines = io.outputText.split(separator: "\n")
        #expect(lines.count >= 5)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["kind"] as? String == "pcsc")
        }
        #expect(lines.first == #"{"event":"reader-added","kind":"pcsc","name":"Reader 0","url":"pcsc:Reader%200"}"#)
    }

    @Test("readers --watch stops at the stop signal with 0")
    func watchStops() async throws {
        let io = TestIO()
        var endless = fakePCSC(["Reader 0"])
        endless.watchReaders = { AsyncThrowingStream { $0.yield(.added("Reader 0")) } }
        // Stopped once the reader's line is out (a loaded machine may run the watch late).
        io.pcsc = endless
        let status = try await ReadersWatch.run(
            CommandInvocation(path: [], values: ParsedValues(for: ReadersCommand.spec), io: io), json: false,
            stop: { _ = await eventually { io.outputText.contains("reader added    pcsc    Reader 0") } })
        #expect(status == .success)
        #expect(io.outputText.hasPrefix("reader added    pcsc    Reader 0"))
    }
}
