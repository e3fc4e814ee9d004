import Foundation
import SimulatedReader
import SimulatorBridges
import Synchronization
import SystemSupport
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// ``PN532SerialSimulator`` driven over its pseudo-terminal by a raw serial client
/// (``PN532TestClient``): the HSU dialogue of UM0701 6.2.2, the link, removal and faults,
/// the tag file, stopping.
@Suite(.timeLimit(.minutes(6))) struct PN532SerialSimulatorTests {
    static let ack = "0000FF00FF00"
    /// SAMConfiguration normal mode (14 01) as libnfc sends it, and its answer.
    static let samConfiguration = "0000FF03FDD414011700"
    static let samAnswer = "0000FF02FED5151600"

    static func ntag215() -> SimulatedReader {
        SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215)))
    }

    /// A started simulator for `reader` with a link in `directory`.
    static func serve(
        _ reader: SimulatedReader, in directory: TemporaryDirectory, reinsertAfter: Int? = nil,
        partialFrameMilliseconds: Int = 60_000, events: PN532EventLog? = nil
    ) throws -> PN532SerialSimulator {
        let simulator = try PN532SerialSimulator(
            reader: reader, linkPath: directory.path("pn532"), reinsertAfterMilliseconds: reinsertAfter,
            partialFrameMilliseconds: partialFrameMilliseconds
        ) { event in events?.append(event) }
        try simulator.start()
        return simulator
    }

    @Test("Wake-up preamble, then SAMConfiguration: ACK first, then the response frame")
    func wakeUpAndSAMConfiguration() async throws {
        let directory = try TemporaryDirectory("pn532")
        let simulator = try Self.serve(Self.ntag215(), in: directory)
        defer { simulator.stop() }
        let client = try PN532TestClient(path: directory.path("pn532"))
        try client.write("55550000000000000000000000000000" + Self.samConfiguration)
        #expect(await client.read(6) == Self.ack)
        #expect(await client.read(9) == Self.samAnswer)
        #expect(await client.readAll(within: .milliseconds(50)).isEmpty)
        #expect(simulator.status.count(of: 0x14) == 1)
        #expect(simulator.status.frameCount == 1)
    }

    @Test("A frame written in pieces is answered once it is whole")
    func splitWrites() async throws {
        let directory = try TemporaryDirectory("pn532")
        let simulator = try Self.serve(Self.ntag215(), in: directory)
        defer { simulator.stop() }
        let client = try PN532TestClient(path: directory.path("pn532"))
        // The simulator waits a minute here for the rest of a frame (partialFrameMilliseconds),
        // however the writes are scheduled. An answer to the first piece would come before the
        // ACK below.
        try client.write("0000FF02")
        try client.write("FED402")
        try client.write("2A00")
        #expect(await client.read(6 + 13) == Self.ack + "0000FF06FAD50332010607E800")
        #expect(simulator.status.frameCount == 1)
        #expect(simulator.status.droppedFrameCount == 0)
    }

    @Test("NACK: the last response comes again, without another ACK")
    func nack() async throws {
        let directory = try TemporaryDirectory("pn532")
        let simulator = try Self.serve(Self.ntag215(), in: directory)
        defer { simulator.stop() }
        let client = try PN532TestClient(path: directory.path("pn532"))
        let first = try await client.command("D402")
        #expect(first.ack == Self.ack)
        #expect(first.response == "0000FF06FAD50332010607E800")
        try client.write("0000FFFF0000")
        #expect(await client.read(13) == first.response)
        #expect(simulator.status.nackCount == 1)
        #expect(simulator.status.count(of: 0x02) == 1)
    }

    @Test("A frame with a wrong checksum gets nothing back; the next good one is answered")
    func badChecksumIgnored() async throws {
        let directory = try TemporaryDirectory("pn532")
        let events = PN532EventLog()
        let simulator = try Self.serve(Self.ntag215(), in: directory, events: events)
        defer { simulator.stop() }
        let client = try PN532TestClient(path: directory.path("pn532"))
        try client.write("0000FF03FDD414011800")
        #expect(await client.readAll(within: .milliseconds(100)).isEmpty)
        try client.write(Self.samConfiguration)
        #expect(await client.read(15) == Self.ack + Self.samAnswer)
        #expect(simulator.status.droppedFrameCount == 1)
        #expect(events.all.contains(.frameDropped("a frame with a wrong data checksum (DCS) was dropped")))
    }

    @Test("Unknown commands get the error frame (after the ACK) and an event")
    func errorFrame() async throws {
        let directory = try TemporaryDirectory("pn532")
        let events = PN532EventLog()
        let simulator = try Self.serve(Self.ntag215(), in: directory, events: events)
        defer { simulator.stop() }
        let client = try PN532TestClient(path: directory.path("pn532"))
        let answer = try await client.command("D48C")
        #expect(answer.ack == Self.ack)
        #expect(answer.response == "0000FF01FF7F8100")
        #expect(simulator.status.refusedCount == 1)
        #expect(events.all == [.commandRefused(0x8C)])
    }

    @Test("A client that dies half-way through a frame does not disturb the next one")
    func abandonedFrame() async throws {
        let directory = try TemporaryDirectory("pn532")
        let simulator = try Self.serve(
            Self.ntag215(), in: directory,
            partialFrameMilliseconds: PN532SerialSimulator.defaultPartialFrameMilliseconds)
        defer { simulator.stop() }
        do {
            let dying = try PN532TestClient(path: directory.path("pn532"))
            try dying.write("0000FF20E0D440")
        }
        // The simulator drops the cut frame once its rest is overdue (partialFrameMilliseconds).
        #expect(await eventually { simulator.status.droppedFrameCount == 1 })
        let client = try PN532TestClient(path: directory.path("pn532"))
        #expect(try await client.command("D402").response == "0000FF06FAD50332010607E800")
        #expect(simulator.status.droppedFrameCount == 1)
    }

    @Test("Answers nobody read are dropped when the next command comes")
    func staleAnswersDropped() async throws {
        let directory = try TemporaryDirectory("pn532")
        let simulator = try Self.serve(Self.ntag215(), in: directory)
        defer { simulator.stop() }
        do {
            let leaving = try PN532TestClient(path: directory.path("pn532"))
            try leaving.write("0000FF02FED4022A00")
            // Gone once the simulator took the command: its answer is written before the
            // simulator reads anything else.
            #expect(await eventually { simulator.status.count(of: 0x02) == 1 })
        }
        let client = try PN532TestClient(path: directory.path("pn532"))
        try client.write(Self.samConfiguration)
        // Read once the simulator took the command (a client reading at once could still
        // catch the stale bytes before they are dropped; they are dropped before the ACK).
        #expect(await eventually { simulator.status.count(of: 0x14) == 1 })
        #expect(await client.read(15) == Self.ack + Self.samAnswer)
        #expect(await client.readAll(within: .milliseconds(50)).isEmpty)
        #expect(simulator.status.count(of: 0x02) == 1)
    }

    @Test("InListPassiveTarget and InDataExchange READ through the terminal")
    func readPage() async throws {
        let directory = try TemporaryDirectory("pn532")
        let simulator = try Self.serve(Self.ntag215(), in: directory)
        defer { simulator.stop() }
        let client = try PN532TestClient(path: directory.path("pn532"))
        #expect(try await client.command("D44A0100").response == "0000FF0FF1D54B01010044000704517CA24B35802000")
        #expect(try await client.command("D440013003").response.hasPrefix("0000FF13EDD54100E1103E000300FE00"))
        #expect(simulator.status.count(of: 0x4A) == 1)
        #expect(simulator.status.count(of: 0x40) == 1)
    }

    @Test("removeTag: no target is found until insertTag puts the tag back")
    func removeAndInsert() async throws {
        let directory = try TemporaryDirectory("pn532")
        let events = PN532EventLog()
        let reader = Self.ntag215()
        let simulator = try Self.serve(reader, in: directory, events: events)
        defer { simulator.stop() }
        let client = try PN532TestClient(path: directory.path("pn532"))
        #expect(try await client.command("D44A0100").response.contains("D54B01"))
        simulator.removeTag()
        #expect(!simulator.status.isInserted)
        #expect(try await client.command("D440013003").response == "0000FF03FDD54101E900")
        #expect(try await client.command("D44A0100").response == "0000FF03FDD54B00E000")
        simulator.insertTag()
        #expect(try await client.command("D44A0100").response.contains("D54B01"))
        #expect(events.all == [.removed, .inserted])
        #expect(reader.field.tags.count == 1)
    }

    @Test("remove-after: the command during which the tag leaves times out (status 01); the field stays empty")
    func removalFault() async throws {
        let directory = try TemporaryDirectory("pn532")
        let events = PN532EventLog()
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        field.arm(.init(removeAfterCommands: 2))
        // No reinsertion delay: the tag stays out until insertTag(), so the checks of the empty
        // field below do not depend on how fast the machine runs them.
        let simulator = try Self.serve(SimulatedReader(field: field), in: directory, events: events)
        defer { simulator.stop() }
        let client = try PN532TestClient(path: directory.path("pn532"))
        #expect(try await client.command("D44A0100").response.contains("D54B01"))
        #expect(try await client.command("D440013004").response.contains("D54100"))
        #expect(try await client.command("D440013004").response == "0000FF03FDD54101E900")
        #expect(!simulator.status.isInserted)
        #expect(try await client.command("D44A0100").response == "0000FF03FDD54B00E000")
        #expect(try await client.command("D44A0100").response == "0000FF03FDD54B00E000")
        simulator.insertTag()
        #expect(try await client.command("D44A0100").response.contains("D54B01"))
        #expect(events.all == [.leftByFault, .inserted])
    }

    @Test("remove-after with a reinsertion delay: the tag comes back by itself, after it left")
    func removalFaultWithReinsertion() async throws {
        let directory = try TemporaryDirectory("pn532")
        let events = PN532EventLog()
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        field.arm(.init(removeAfterCommands: 2))
        let simulator = try Self.serve(
            SimulatedReader(field: field), in: directory, reinsertAfter: 50, events: events)
        defer { simulator.stop() }
        let client = try PN532TestClient(path: directory.path("pn532"))
        #expect(try await client.command("D44A0100").response.contains("D54B01"))
        #expect(try await client.command("D440013004").response.contains("D54100"))
        // The command during which the tag leaves times out, whenever the reinsertion comes.
        #expect(try await client.command("D440013004").response == "0000FF03FDD54101E900")
        // Order, not time: the tag left, then came back by itself (no insertTag() here).
        #expect(await eventually { simulator.status.isInserted })
        #expect(try await client.command("D44A0100").response.contains("D54B01"))
        #expect(events.all == [.leftByFault, .inserted])
    }

    @Test("A WRITE is in the tag file before the response goes out")
    func persistence() async throws {
        let directory = try TemporaryDirectory("pn532")
        let url = "sim:ntag215?file=\(directory.path("tag.nfc"))"
        let simulator = try Self.serve(try await SimulatedReader(url: url), in: directory)
        defer { simulator.stop() }
        let client = try PN532TestClient(path: directory.path("pn532"))
        _ = try await client.command("D44A0100")
        #expect(try await client.command("D44001A204CAFEF00D").response == "0000FF03FDD54100EA00")
        let reopened = try await SimulatedReader(url: url)
        #expect(reopened.field.tags.first?.type2Tag?.page(4).map { hexText($0) } == "CAFEF00D")
    }

    @Test("The link: connstring, a stale link replaced, a regular file refused, removed at stop")
    func link() async throws {
        let directory = try TemporaryDirectory("pn532")
        let path = directory.path("pn532")
        #expect(symlink("/nonexistent/old-pty", path) == 0)
        let simulator = try PN532SerialSimulator(reader: Self.ntag215(), linkPath: path)
        #expect(simulator.connstring == "pn532_uart:" + path)
        #expect(simulator.slavePath.hasPrefix("/dev/pts/"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == simulator.slavePath)
        simulator.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
        #expect(throws: SimulatorBridgeError(.invalidConfiguration, "")) {
            try PN532SerialSimulator(reader: Self.ntag215(), linkPath: path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
        let unlinked = try PN532SerialSimulator(reader: Self.ntag215())
        #expect(unlinked.connstring == "pn532_uart:" + unlinked.slavePath)
        #expect(unlinked.linkPath == nil)
        unlinked.stop()
    }

    // How long stop takes is not judged here (a busy machine makes any bound flaky).
    @Test("stop ends the thread, closes the terminal; a simulator starts once")
    func stopping() async throws {
        let directory = try TemporaryDirectory("pn532")
        let simulator = try Self.serve(Self.ntag215(), in: directory)
        let client = try PN532TestClient(path: directory.path("pn532"))
        #expect(try await client.command("D402").ack == Self.ack)
        simulator.stop()
        #expect(!simulator.status.isRunning)
        simulator.stop()
        #expect(throws: SimulatorBridgeError(.alreadyStarted, "")) { try simulator.start() }
        #expect(throws: SimulatorBridgeError(.invalidConfiguration, "")) {
            try PN532SerialSimulator(reader: Self.ntag215(), reinsertAfterMilliseconds: -1)
        }
    }

    @Test("Two clients one after the other: the terminal outlives its clients")
    func clientsComeAndGo() async throws {
        let directory = try TemporaryDirectory("pn532")
        let simulator = try Self.serve(Self.ntag215(), in: directory)
        defer { simulator.stop() }
        for _ in 0..<3 {
            let client = try PN532TestClient(path: directory.path("pn532"))
            #expect(try await client.command("D402").response == "0000FF06FAD50332010607E800")
        }
        #expect(simulator.status.count(of: 0x02) == 3)
    }
}

/// The events a simulator reported, in order.
final class PN532EventLog: Sendable {
    private let events = Mutex<[PN532SerialSimulator.Event]>([])

    func append(_ event: PN532SerialSimulator.Event) { events.withLock { $0.append(event) } }

    var all: [PN532SerialSimulator.Event] { events.withLock { $0 } }
}
