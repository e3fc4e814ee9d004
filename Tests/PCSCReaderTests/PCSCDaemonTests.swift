import Dispatch
import Foundation
import NFCSession
import Testing

@testable import PCSCReader

/// The backend against the real pcscd with vpcd's two readers and no card (test-stacks.md part
/// A). Card-present tests come with the vpcd card bridge.
@Suite(
    "PC/SC through the real pcscd", .serialized,
    .enabled(if: PCSCDaemon.isAvailable, "needs root, pcscd, unshare and vsmartcard-vpcd"))
struct PCSCDaemonTests {
    @Test("pcscd lists the two vpcd readers; a URL opens one with the acr122u profile")
    func listing() async throws {
        let daemon = try await PCSCDaemon()
        defer { daemon.stop() }
        #expect(try await PCSCReaders.names() == PCSCDaemon.virtualReaders)
        let device = try await PCSCReaders.open(url: "pcsc:virtual%20pcd%2000%2001?exclusive=1")
        #expect(device.name == "Virtual PCD 00 01")
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
        let daemon = try await PCSCDaemon()
        defer { daemon.stop() }
        let device = PCSCReaderDevice(readerName: "Virtual PCD 00 00")
        #expect(try await device.pollTargets() == [])
        #expect(try await device.pollTargets() == [])
        let target = NFCTargetInfo(index: 0, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06], atqa: [], sak: 0)
        let select = await asyncReaderError { try await device.select(target) }
        #expect(select?.code == .tagConnectionLost)
        #expect(select?.reason.contains("no tag is on the reader \"Virtual PCD 00 00\"") == true)
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
        let daemon = try await PCSCDaemon()
        defer { daemon.stop() }
        let device = PCSCReaderDevice(readerName: "Virtual PCD 00 01")
        let session = NFCTagReaderSession(reader: device)
        let error = await asyncReaderError { _ = try await session.nextTag(timeout: .milliseconds(300)) }
        #expect(error?.code == .timeout)
        await session.invalidate()
        await device.close()
    }

    @Test("an unknown reader name is reader-unavailable")
    func unknownReader() async throws {
        let daemon = try await PCSCDaemon()
        defer { daemon.stop() }
        let device = PCSCReaderDevice(readerName: "ACS ACR122U PICC Interface 00 00")
        #expect(device.profile == .acr122u)
        let error = await asyncReaderError { _ = try await device.pollTargets() }
        #expect(error?.code == .readerUnavailable)
        #expect(error?.reason.contains("is gone") == true)
    }

    @Test("pcscd stopped: reader-unavailable with the command that starts it")
    func daemonStopped() async throws {
        let daemon = try await PCSCDaemon()
        let device = PCSCReaderDevice(readerName: "Virtual PCD 00 00")
        #expect(try await device.pollTargets() == [])
        daemon.stop()
        let whileGone = await asyncReaderError { _ = try await device.pollTargets() }
        #expect(whileGone?.code == .readerUnavailable)
        #expect(whileGone?.reason.hasPrefix("pcscd is not running") == true, "\(whileGone?.reason ?? "")")
        // The context was dropped: the next call finds no pcscd at all.
        let again = await asyncReaderError { _ = try await device.pollTargets() }
        #expect(again?.code == .readerUnavailable)
        #expect(
            again?.reason.hasPrefix("pcscd is not running: start it with `sudo systemctl start pcscd` (or `pcscd -f`)")
                == true)
        let listing = await asyncReaderError { _ = try await PCSCReaders.names() }
        #expect(listing?.code == .readerUnavailable)
        #expect(listing?.reason.contains("SCARD_E_NO_SERVICE") == true)
        let opening = await asyncReaderError { _ = try await PCSCReaders.open(url: "pcsc:") }
        #expect(opening?.reason.contains("pcscd is not running") == true)
    }

    @Test("the reader watch lists pcscd's readers, ends when the consumer stops, and fails when pcscd stops")
    func readerWatch() async throws {
        let daemon = try await PCSCDaemon()
        defer { daemon.stop() }
        var events: [PCSCReaderEvent] = []
        for try await event in PCSCReaders.watchReaders() {
            events.append(event)
            if events.count == 2 { break }
        }
        #expect(events == PCSCDaemon.virtualReaders.map(PCSCReaderEvent.added))

        var iterator = PCSCReaders.watchReaders().makeAsyncIterator()
        #expect(try await iterator.next() == .added("Virtual PCD 00 00"))
        #expect(try await iterator.next() == .added("Virtual PCD 00 01"))
        daemon.stop()
        let failure = await asyncReaderError { _ = try await iterator.next() }
        #expect(failure?.code == .readerUnavailable, "\(failure?.description ?? "no error")")
        #expect(failure?.reason.hasPrefix("pcscd is not running") == true)
    }

    @Test("the card watch reports an empty reader and stops promptly")
    func cardWatch() async throws {
        let daemon = try await PCSCDaemon()
        defer { daemon.stop() }
        var first: PCSCCardEvent?
        for try await event in PCSCReaders.watchCard(in: "Virtual PCD 00 00") {
            first = event
            break
        }
        #expect(first?.presence == .empty)
        #expect(first?.readerName == "Virtual PCD 00 00")
        #expect(first?.atr == [])

        let unknown = try await PCSCReaders.watchCard(in: "No Such Reader").first { _ in true }
        #expect(unknown?.presence == .readerRemoved)
    }

    @Test("SCardCancel ends a status wait before its timeout")
    func cancelWakesWait() async throws {
        let daemon = try await PCSCDaemon()
        defer { daemon.stop() }
        let watch = PCSCStatusWatch()
        let clock = ContinuousClock()
        let elapsed: Duration = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "test.wait").async {
                do {
                    guard let context = try watch.establishContext() else {
                        throw PCSCError(code: 1, operation: "none")
                    }
                    var states = [PCSCReaderState(readerName: "Virtual PCD 00 00", currentState: 0)]
                    _ = try watch.wait(context, &states)  // the reader's state now
                    states[0].currentState = states[0].settledState
                    let start = clock.now
                    let goOn = try watch.wait(context, &states)  // nothing changes: only the cancel ends it
                    #expect(!goOn)
                    continuation.resume(returning: clock.now - start)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(150)) { watch.stop() }
        }
        #expect(elapsed < .milliseconds(Int(PCSCStatusWatch.waitMilliseconds) - 200))
    }
}
