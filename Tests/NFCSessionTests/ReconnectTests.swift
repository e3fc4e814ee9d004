import NDEF
import NFCSession
import SimulatedReader
import Synchronization
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// ``ReconnectingReader`` over a simulated reader that is unplugged and plugged back
/// (``ReaderSocket``): reconnecting with backoff while polling, the session's events, writes
/// that are never retried, cancelling, and turning reconnecting off.
@Suite struct ReconnectTests {
    let fast = ReconnectPolicy(initialDelay: .milliseconds(5), maximumDelay: .milliseconds(20), timeout: .seconds(120))

    func makeSocket(_ message: NFCNDEFMessage? = nil) -> ReaderSocket {
        ReaderSocket(makeReader([tagHolding(message, chip: .ntag215)]))
    }

    func reconnecting(_ socket: ReaderSocket, policy: ReconnectPolicy) throws -> ReconnectingReader {
        ReconnectingReader(try socket.open(), policy: policy) { () throws(NFCReaderError) in try socket.open() }
    }

    /// Collects the session events, in order.
    final class EventLog: Sendable {
        private let events = Mutex<[NFCSessionEvent]>([])
        var all: [NFCSessionEvent] { events.withLock { $0 } }
        func add(_ event: NFCSessionEvent) { events.withLock { $0.append(event) } }
        var reconnects: [NFCSessionEvent] {
            all.filter {
                switch $0 {
                case .reconnectStarted, .reconnectSucceeded, .reconnectFailed: true
                default: false
                }
            }
        }
    }

    @Test("Backoff doubles from the initial delay up to the maximum")
    func backoff() {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .seconds(1))
        #expect(policy.delay(afterFailedAttempts: 1) == .milliseconds(100))
        #expect(policy.delay(afterFailedAttempts: 2) == .milliseconds(200))
        #expect(policy.delay(afterFailedAttempts: 4) == .milliseconds(800))
        #expect(policy.delay(afterFailedAttempts: 5) == .seconds(1))
        #expect(policy.delay(afterFailedAttempts: 50) == .seconds(1))
    }

    @Test("A reader unplugged while the session waits comes back: started, succeeded, then the tag")
    func reconnectsWhilePolling() async throws {
        let socket = makeSocket(uriMessage(length: 20))
        let reader = try reconnecting(socket, policy: fast)
        let log = EventLog()
        let session = NFCTagReaderSession(reader: reader) { log.add($0) }
        socket.unplug()
        // Plugged back once the session has tried to reopen it and failed (the first opening and
        // one attempt): not after a fixed time, which a busy machine could spend before the
        // session even polled.
        let replug = Task {
            let tried = await eventually { socket.openCount >= 2 }
            socket.plug()
            return tried
        }
        let tag = try await session.nextTag(timeout: .seconds(60))
        #expect(await replug.value)
        guard let type2 = tag as? NFCMiFareTag else { throw NFCReaderError(.tagNotSupported, "not Type 2") }
        #expect(try await type2.readNDEF() == uriMessage(length: 20))
        let reconnects = log.reconnects
        #expect(reconnects.count == 2)
        guard case .reconnectStarted(let reason) = reconnects.first else {
            Issue.record("no reconnectStarted: \(log.all)")
            return
        }
        #expect(reason.contains("unplugged"))
        #expect(reconnects.last == .reconnectSucceeded(readerName: "unpluggable"))
        #expect(socket.openCount >= 3)  // the first opening, at least one failed attempt, the success
        #expect(NFCSessionEvent.reconnectStarted(reason: reason).description == "Reader disconnected: reconnecting...")
        #expect(NFCSessionEvent.reconnectSucceeded(readerName: "x").description == "Reader back")
        await session.invalidate()
        await reader.close()
    }

    @Test("A write broken by the reader leaving is not retried: half-written, and resume completes it")
    func writeIsNeverRetried() async throws {
        let socket = makeSocket()
        let reader = try reconnecting(socket, policy: fast)
        let log = EventLog()
        let session = NFCTagReaderSession(reader: reader) { log.add($0) }
        guard let tag = try await session.nextTag(timeout: .seconds(2)) as? NFCMiFareTag else {
            throw NFCReaderError(.tagNotSupported, "not Type 2")
        }
        let message = uriMessage(length: 120)
        _ = try await tag.ndefStatus()
        socket.base.clearLog()
        socket.unplug(afterFrames: 3)
        let error = await caught { try await tag.writeNDEF(message) }
        #expect(error?.mayBeHalfWritten == true)
        #expect(log.reconnects.isEmpty)  // nothing happens behind the caller's back
        let writesBefore = socket.base.log.count
        socket.plug()
        // The next poll reconnects; resume then completes the write on the same tag.
        guard let again = try await session.nextTag(timeout: .seconds(2)) as? NFCMiFareTag else {
            throw NFCReaderError(.tagNotSupported, "not Type 2")
        }
        #expect(log.reconnects.count == 2)
        #expect(writesBefore == 3)
        try await again.resumeWrite(message)
        #expect(try await again.readNDEF() == message)
        await session.invalidate()
        await reader.close()
    }

    @Test("A reader that never comes back ends with reconnectFailed after the attempts allowed")
    func givesUp() async throws {
        let socket = makeSocket()
        var policy = fast
        policy.maximumAttempts = 3
        let reader = try reconnecting(socket, policy: policy)
        let log = EventLog()
        let session = NFCTagReaderSession(reader: reader) { log.add($0) }
        socket.unplug()
        // No limit on the wait: the policy's three attempts end it, however slow the machine is.
        let error = await caught { _ = try await session.nextTag() }
        #expect(error?.code == .readerUnavailable)
        #expect(error?.reason.contains("after 3 attempts") == true)
        #expect(socket.openCount == 4)
        guard case .reconnectFailed(let failure) = log.reconnects.last else {
            Issue.record("no reconnectFailed: \(log.all)")
            return
        }
        #expect(failure.code == .readerUnavailable)
        await session.invalidate()
    }

    @Test("cancelReconnect ends a reconnect in progress with cancelled", .timeLimit(.minutes(1)))
    func cancelling() async throws {
        let socket = makeSocket()
        // A reconnect that would go on for 10 minutes: only cancelReconnect ends it.
        let reader = try reconnecting(
            socket, policy: ReconnectPolicy(initialDelay: .milliseconds(50), timeout: .seconds(600)))
        socket.unplug()
        let poll = Task { await caught { _ = try await reader.pollTargets() } }
        try #require(await eventually { reader.isReconnecting })
        reader.cancelReconnect()
        let error = await poll.value
        #expect(error?.code == .cancelled)
        #expect(!reader.isReconnecting)
        // A later poll, with the reader back, reconnects.
        socket.plug()
        #expect(try await reader.pollTargets().count == 1)
    }

    @Test("Turned off, a disconnect reaches the caller at once and nothing is reopened", arguments: [true, false])
    func disabled(_ byPolicy: Bool) async throws {
        let socket = makeSocket()
        let reader = try reconnecting(socket, policy: byPolicy ? .disabled : fast)
        if !byPolicy { reader.setReconnectEnabled(false) }
        let events = EventLog()
        reader.observeLifecycle { events.add(NFCSessionEvent($0)) }
        socket.unplug()
        let error = await caught { _ = try await reader.pollTargets() }
        #expect(error?.code == .readerUnavailable)
        #expect(socket.openCount == 1)
        #expect(events.all.isEmpty)
    }
}
