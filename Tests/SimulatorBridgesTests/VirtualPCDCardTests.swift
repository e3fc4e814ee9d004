import Foundation
import NFCSession
import SimulatedReader
import SimulatorBridges
import Synchronization
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// ``VirtualPCDCard`` against a fake vpcd driver (``FakeVirtualPCD``): the wire protocol,
/// card removal and reinsertion, faults, the tag file, stopping. No pcscd needed.
@Suite(.timeLimit(.minutes(6))) struct VirtualPCDCardTests {
    static let getATR: [UInt8] = [0x04]
    static let powerOn: [UInt8] = [0x01]
    static let type2ATR = "3B8F8001804F0CA0000003060300030000000068"

    /// A started card serving `reader` to `server`, connected.
    static func serve(
        _ reader: SimulatedReader, on server: FakeVirtualPCD, reinsertAfter: Int? = nil,
        events: EventLog? = nil
    ) async throws -> VirtualPCDCard {
        let configuration = VirtualPCDCard.Configuration(port: server.port, reinsertAfterMilliseconds: reinsertAfter)
        let card = try VirtualPCDCard(reader: reader, configuration: configuration) { event in
            events?.append(event)
        }
        try card.start()
        try await server.accept()
        return card
    }

    /// Accepts the card coming back: first the connection that shows vpcd the card gone (it
    /// closes at the first message, unanswered), then the card's own.
    static func acceptAfterAbsence(_ server: FakeVirtualPCD) async throws {
        try await server.accept()
        #expect(try await server.exchange(getATR) == nil, "the card answered the check it must let fail")
        try await server.accept()
    }

    @Test("The card answers get ATR and APDUs; power on activates the tag")
    func answers() async throws {
        let server = try FakeVirtualPCD()
        let card = try await Self.serve(SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215))), on: server)
        defer { card.stop() }
        #expect(try await server.exchange(Self.getATR).map { hexText($0) } == Self.type2ATR)
        try server.send(Self.powerOn)
        #expect(try await server.exchange(hex("FFCA000000")).map { hexText($0) } == "04517CA24B35809000")
        #expect(try await server.exchange(hex("FFB0000404")).map { hexText($0) } == "0300FE009000")
        #expect(card.status.apduCount == 2)
        #expect(card.status.isConnected)
    }

    @Test("removeTag closes the connection (the card leaves); insertTag connects again")
    func removeAndInsert() async throws {
        let server = try FakeVirtualPCD()
        let events = EventLog()
        let card = try await Self.serve(
            SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag213))), on: server, events: events)
        defer { card.stop() }
        card.removeTag()
        #expect(try await server.sawClose())
        #expect(!card.status.isInserted)
        card.insertTag()
        try await Self.acceptAfterAbsence(server)
        #expect(try await server.exchange(Self.getATR).map { hexText($0) } == Self.type2ATR)
        #expect(card.status.connectionCount == 2)
        #expect(events.all == [.inserted, .removed, .inserted])
    }

    @Test("remove-after: the card closes without answering that APDU, and comes back after the delay")
    func removalFault() async throws {
        let server = try FakeVirtualPCD()
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        field.arm(.init(removeAfterCommands: 2))
        let card = try await Self.serve(SimulatedReader(field: field), on: server, reinsertAfter: 100)
        defer { card.stop() }
        try server.send(Self.powerOn)
        #expect(try await server.exchange(hex("FFB0000404")).map { hexText($0) } == "0300FE009000")
        // Timed from before the command the card leaves with: a busy machine only makes it longer.
        let started = ContinuousClock.now
        #expect(try await server.exchange(hex("FFB0000404")) == nil)
        try await Self.acceptAfterAbsence(server)
        #expect(ContinuousClock.now - started >= .milliseconds(80))
        try server.send(Self.powerOn)
        #expect(try await server.exchange(hex("FFB0000404")).map { hexText($0) } == "0300FE009000")
    }

    @Test("remove-after=0: the card starts outside the field and waits for insertTag")
    func startsOutside() async throws {
        let server = try FakeVirtualPCD()
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        field.arm(.init(removeAfterCommands: 0))
        let card = try VirtualPCDCard(reader: SimulatedReader(field: field), configuration: .init(port: server.port))
        try card.start()
        defer { card.stop() }
        await #expect(throws: FakeVirtualPCD.Failure.self) { try await server.accept(within: 300) }
        card.insertTag()
        try await server.accept()
        #expect(try await server.exchange(Self.getATR).map { hexText($0) } == Self.type2ATR)
    }

    @Test("When nothing listens yet, the card keeps trying and connects once the driver is up")
    func retriesUntilTheDriverListens() async throws {
        let server = try FakeVirtualPCD(listening: false)
        let card = try VirtualPCDCard(
            reader: SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215))),
            configuration: .init(port: server.port))
        try card.start()
        defer { card.stop() }
        // A pause for the card to try (and fail) a few times; nothing is judged by its length.
        try await Task.sleep(for: .milliseconds(250))
        #expect(!card.status.isConnected)
        try server.listen()
        try await server.accept()
        #expect(try await server.exchange(Self.getATR).map { hexText($0) } == Self.type2ATR)
    }

    @Test("latency-ms delays every APDU on the card's side")
    func latency() async throws {
        let server = try FakeVirtualPCD()
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        field.arm(.init(latencyMilliseconds: 60))
        let card = try await Self.serve(SimulatedReader(field: field), on: server)
        defer { card.stop() }
        try server.send(Self.powerOn)
        let started = ContinuousClock.now
        #expect(try await server.exchange(hex("FFCA000000")).map { hexText($0) } == "04517CA24B35809000")
        #expect(ContinuousClock.now - started >= .milliseconds(55))
    }

    @Test("A change is in the tag file before the response goes out")
    func persistence() async throws {
        let directory = try TemporaryDirectory("vpcd")
        defer { directory.remove() }
        let url = "sim:ntag215?file=\(directory.path("tag.nfc"))"
        let server = try FakeVirtualPCD()
        let card = try await Self.serve(try await SimulatedReader(url: url), on: server)
        defer { card.stop() }
        try server.send(Self.powerOn)
        #expect(try await server.exchange(hex("FFD6000404CAFEF00D")).map { hexText($0) } == "9000")
        let reopened = try await SimulatedReader(url: url)
        guard case .type2(let tag)? = reopened.field.tags.first else {
            Issue.record("the file holds no Type 2 tag")
            return
        }
        #expect(tag.memory.page(4).map { hexText($0) } == "CAFEF00D")
    }

    @Test("stop disconnects, ends the thread and cannot be undone; a card starts once")
    func stopping() async throws {
        let server = try FakeVirtualPCD()
        let card = try await Self.serve(SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215))), on: server)
        card.stop()
        #expect(try await server.sawClose())
        #expect(!card.status.isRunning)
        card.stop()
        #expect(throws: SimulatorBridgeError(.alreadyStarted, "")) { try card.start() }
    }

    @Test("Port 0 and a negative reinsertion delay are refused")
    func configuration() {
        let reader = SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215)))
        #expect(throws: SimulatorBridgeError(.invalidConfiguration, "")) {
            try VirtualPCDCard(reader: reader, configuration: .init(port: 0))
        }
        #expect(throws: SimulatorBridgeError(.invalidConfiguration, "")) {
            try VirtualPCDCard(reader: reader, configuration: .init(port: 1, reinsertAfterMilliseconds: -1))
        }
    }
}

/// The events a card reported, in order.
final class EventLog: Sendable {
    private let events = Mutex<[VirtualPCDCard.Event]>([])

    func append(_ event: VirtualPCDCard.Event) { events.withLock { $0.append(event) } }

    var all: [VirtualPCDCard.Event] { events.withLock { $0 } }
}
