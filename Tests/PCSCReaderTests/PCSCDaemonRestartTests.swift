import Foundation
import NDEF
import NFCSession
import SimulatedReader
import SimulatorBridges
import Synchronization
import TagMemory
import TagSimulator
import TestSupport
import Testing

@testable import PCSCReader

extension PCSCStoppedDaemonChild {
    /// The lifecycle events a reader reported, in order.
    final class LifecycleLog: Sendable {
        private let events = Mutex<[NFCReaderLifecycleEvent]>([])
        func add(_ event: NFCReaderLifecycleEvent) { events.withLock { $0.append(event) } }
        var all: [NFCReaderLifecycleEvent] { events.withLock { $0 } }
    }

    /// Type 2 tag access of the next tag `session` finds. The card must first be seen by a
    /// pcscd that may have just started (its 0.4 s checks, on a machine that may be busy): the
    /// limit is a safety net, never the verdict.
    static func nextMiFare(_ session: NFCTagReaderSession) async throws -> NFCMiFareTag {
        guard let tag = try await session.nextTag(timeout: .seconds(120)) as? NFCMiFareTag else {
            throw NFCReaderError(.tagNotSupported, "not a Type 2 tag")
        }
        return tag
    }

    @Test("pcscd restarted twice under a reconnecting reader: reconnect events, and the tag reads again")
    func restartUnderReconnectingReader() async throws {
        var daemon = try await Self.startDaemon()
        defer { daemon.send(SIGKILL) }
        let readerName = "Virtual PCD 00 00"
        let card = try VirtualPCDCard(
            reader: SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215))),
            configuration: .init(port: 35963, profile: .acr122u))
        try card.start()
        defer { card.stop() }
        let policy = ReconnectPolicy(
            initialDelay: .milliseconds(50), maximumDelay: .milliseconds(400), timeout: .seconds(120))
        let reader = ReconnectingReader(PCSCReaderDevice(readerName: readerName), policy: policy) {
            () throws(NFCReaderError) in PCSCReaderDevice(readerName: readerName)
        }
        let log = LifecycleLog()
        reader.observeLifecycle { log.add($0) }
        let session = NFCTagReaderSession(reader: reader)
        let message = uriMessage(length: 60, seed: 7)
        try await Self.nextMiFare(session).writeNDEF(message)

        // pcscd goes away between two operations and comes back: the next poll reconnects.
        await Self.killDaemon(daemon)
        daemon = try await Self.startDaemon()
        #expect(try await Self.nextMiFare(session).readNDEF() == message)
        let first = log.all
        #expect(first.count == 2, "\(first)")
        if case .reconnectStarted(let reason)? = first.first {
            #expect(reason.contains("pcscd"), "\(reason)")
        } else {
            Issue.record("no reconnectStarted first: \(first)")
        }
        #expect(first.last == .reconnectSucceeded(readerName: readerName))

        // pcscd goes away while the session waits for a tag, and comes back 300 ms later.
        await Self.killDaemon(daemon)
        let restart = Task { () async throws -> ChildProcess in
            try await Task.sleep(for: .milliseconds(300))
            return try await Self.startDaemon()
        }
        let tag = try await Self.nextMiFare(session)
        daemon = try await restart.value
        #expect(try await tag.readNDEF() == message)
        let second = Array(log.all.dropFirst(first.count))
        #expect(second.first.map { if case .reconnectStarted = $0 { true } else { false } } == true, "\(second)")
        #expect(second.last == .reconnectSucceeded(readerName: readerName), "\(second)")
        #expect(!second.contains { if case .reconnectFailed = $0 { true } else { false } })
        await session.invalidate()
        await reader.close()
        await Self.killDaemon(daemon)
        print(Self.restartMarker)
    }
}
