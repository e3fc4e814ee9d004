import Foundation
import NFCSession
import SystemSupport
import TestSupport
import Testing

@testable import PCSCReader

/// The backend against the test run's pcscd with its vpcd readers (test-stacks.md part A;
/// Scripts/lib/pcscd.sh), one test at a time: every suite of this target that talks to that
/// pcscd or serves a card on ``PCSCTestReaders/cardReader`` (vpcd port 35965) and
/// ``PCSCTestReaders/emptyReader`` (35966) nests in this one: discovery, cards, sessions,
/// extended length, signals, and the tests that stop and restart a pcscd (each in a child
/// process of its own, ``PCSCStoppedDaemonTests``).
@Suite(
    "PC/SC through the real pcscd", .serialized, .enabled(if: PCSCTestReaders.isAvailable, PCSCTestReaders.skipNote),
    .timeLimit(.minutes(8)))
struct PCSCDaemonTests {
    @Test("pcscd lists the vpcd readers; a URL opens one with the acr122u profile")
    func listing() async throws {
        #expect(try await PCSCReaders.names() == PCSCTestReaders.all)
        let device = try await PCSCReaders.open(url: "pcsc:virtual%20pcd%20tests%2000%2001?exclusive=1")
        #expect(device.name == "Virtual PCD Tests 00 01")
        #expect(device.profile == .acr122u)
        #expect(device.exclusive)
        #expect(!device.capabilities.detectsMultipleTargets)
        #expect(try await PCSCReaders.open(url: "pcsc:").name == "Virtual PCD 00 00")
        #expect(try await PCSCReaders.open(url: "pcsc:1?profile=generic").profile == .generic)
        let ambiguous = await asyncReaderError { _ = try await PCSCReaders.open(url: "pcsc:Virtual") }
        #expect(ambiguous?.code == .invalidParameter)
        let missing = await asyncReaderError { _ = try await PCSCReaders.open(url: "pcsc:ACS") }
        #expect(missing?.code == .readerUnavailable)
    }

    @Test("no card: polling finds nothing, tag commands say no tag is selected")
    func noCard() async throws {
        let device = PCSCReaderDevice(readerName: PCSCTestReaders.emptyReader)
        #expect(try await device.pollTargets() == [])
        #expect(try await device.pollTargets() == [])
        let target = NFCTargetInfo(index: 0, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06], atqa: [], sak: 0)
        let select = await asyncReaderError { try await device.select(target) }
        #expect(select?.code == .tagConnectionLost)
        #expect(select?.reason.contains("no tag is on the reader \"\(PCSCTestReaders.emptyReader)\"") == true)
        #expect(await asyncReaderError { _ = try await device.transceive([0x30, 0x04]) }?.code == .tagConnectionLost)
        #expect(
            await asyncReaderError { _ = try await device.sendAPDU(hex("00 A4 04 00 00")) }?.code == .tagConnectionLost)
        #expect(await asyncReaderError { _ = try await device.firmwareVersion() }?.code == .tagConnectionLost)
        await device.releaseTargets()
        await device.close()
        #expect(await asyncReaderError { _ = try await device.pollTargets() }?.code == .readerUnavailable)
    }

    @Test("a session over a reader without a card times out")
    func sessionTimesOut() async throws {
        let device = PCSCReaderDevice(readerName: PCSCTestReaders.emptyReader)
        let session = NFCTagReaderSession(reader: device)
        let error = await asyncReaderError { _ = try await session.nextTag(timeout: .milliseconds(300)) }
        #expect(error?.code == .timeout)
        await session.invalidate()
        await device.close()
    }

    @Test("an unknown reader name is reader-unavailable")
    func unknownReader() async throws {
        let device = PCSCReaderDevice(readerName: "ACS ACR122U PICC Interface 00 00")
        #expect(device.profile == .acr122u)
        let error = await asyncReaderError { _ = try await device.pollTargets() }
        #expect(error?.code == .readerUnavailable)
        #expect(error?.reason.contains("is gone") == true)
    }

    @Test("the reader watch lists pcscd's readers and ends when the consumer stops")
    func readerWatch() async throws {
        var events: [PCSCReaderEvent] = []
        for try await event in PCSCReaders.watchReaders() {
            events.append(event)
            if events.count == PCSCTestReaders.all.count { break }
        }
        #expect(events == PCSCTestReaders.all.map(PCSCReaderEvent.added))
    }

    @Test("the card watch reports an empty reader and stops promptly")
    func cardWatch() async throws {
        var first: PCSCCardEvent?
        for try await event in PCSCReaders.watchCard(in: PCSCTestReaders.emptyReader) {
            first = event
            break
        }
        #expect(first?.presence == .empty)
        #expect(first?.readerName == PCSCTestReaders.emptyReader)
        #expect(first?.atr == [])

        let unknown = try await PCSCReaders.watchCard(in: "No Such Reader").first { _ in true }
        #expect(unknown?.presence == .readerRemoved)
    }

    @Test("SCardCancel (the watch's stop) ends a status wait in progress: cancelled, not timed out")
    func cancelWakesWait() async throws {
        /// How the wait and the task stopping it ended.
        enum Outcome: Sendable {
            case waitEnded(code: PCSCStatusCode?)
            case stopperEnded
        }
        let watch = PCSCStatusWatch()
        // SCardEstablishContext and SCardGetStatusChange block: they run on threads of their own.
        let context = try #require(try await BlockingCall.run { () throws(PCSCError) in try watch.establishContext() })
        let settled = try await BlockingCall.run { () throws(PCSCError) -> [PCSCReaderState] in
            var states = [PCSCReaderState(readerName: PCSCTestReaders.emptyReader, currentState: 0)]
            _ = try watch.wait(context, &states)  // the reader's state now
            states[0].currentState = states[0].settledState
            return states
        }
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                await BlockingCall.run {
                    // Nothing changes in the empty reader: only the cancel ends this wait before its
                    // ten minutes (the suite's time limit ends the test long before).
                    var states = settled
                    do throws(PCSCError) {
                        try context.statusChange(&states, timeoutMilliseconds: 600_000)
                        return .waitEnded(code: nil)
                    } catch {
                        return .waitEnded(code: error.status)
                    }
                }
            }
            group.addTask {
                // A stop that comes before the wait began has nothing to cancel: stop again until
                // the wait ended.
                while !Task.isCancelled {
                    watch.stop()
                    try? await Task.sleep(for: .milliseconds(100))
                }
                return .stopperEnded
            }
            var first = await group.next()
            while case .stopperEnded? = first { first = await group.next() }
            group.cancelAll()
            return first
        }
        guard case .waitEnded(let code)? = outcome else {
            Issue.record("the wait did not end: \(String(describing: outcome))")
            return
        }
        #expect(
            code == PCSCStatusCode.cancelled,
            "SCardGetStatusChange ended with \(code.map { "\($0)" } ?? "success")")
        // A stopped watch waits no more.
        let goOn = try await BlockingCall.run { () throws(PCSCError) -> Bool in
            var states = settled
            return try watch.wait(context, &states)
        }
        #expect(!goOn)
    }
}
