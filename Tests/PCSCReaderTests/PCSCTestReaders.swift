import Foundation
import NFCSession
import PCSCReader
import SimulatedReader
import SimulatorBridges
import TagSimulator
import TestSupport
import Testing

/// The readers of the test run's pcscd these tests use (Scripts/lib/pcscd.sh gives every test
/// target its own vpcd readers): a card is served on ``cardReader`` (vpcd port ``cardPort``) by
/// the project's ``SimulatorBridges/VirtualPCDCard``; ``emptyReader`` never holds one.
enum PCSCTestReaders {
    /// Whether the test run has a pcscd with the vpcd readers: `Scripts/test` starts one and sets
    /// `NDEFTOOL_PCSCD=1`.
    static let isAvailable = ProcessInfo.processInfo.environment["NDEFTOOL_PCSCD"] == "1"

    /// Why the tests against pcscd are skipped, said in the test output.
    static let skipNote: Comment = """
        SKIPPED: no pcscd for the PC/SC reader tests (NDEFTOOL_PCSCD is not 1). Run Scripts/test as root, \
        which starts a private pcscd with the vpcd readers and sets NDEFTOOL_PCSCD=1.
        """

    /// Every reader of the test run's pcscd, in pcscd's order.
    static let all = ["Virtual PCD 00 00", "Virtual PCD 00 01", "Virtual PCD Tests 00 00", "Virtual PCD Tests 00 01"]
    /// The reader the cards of these tests are served in.
    static let cardReader = "Virtual PCD Tests 00 00"
    /// Its vpcd port.
    static let cardPort: UInt16 = 35965
    /// A reader that stays empty.
    static let emptyReader = "Virtual PCD Tests 00 01"

    /// Waits until pcscd reports `presence` for ``cardReader`` (it checks vpcd every 0.4 s), at
    /// most `timeout`: a timeout means pcscd still reported something else when last asked.
    static func waitFor(_ presence: PCSCCardEvent.Presence, within timeout: Duration = .seconds(60)) async throws {
        var last: PCSCCardEvent.Presence?
        let reached = try await eventually(within: timeout, every: .milliseconds(25)) {
            last = try await PCSCReaders.watchCard(in: cardReader).first { _ in true }?.presence
            return last == presence
        }
        guard !reached else { return }
        throw BenchError(description: "\(cardReader) did not become \(presence) (last: \(String(describing: last)))")
    }

    struct BenchError: Error, CustomStringConvertible {
        let description: String
    }
}

/// A simulated tag served by the project's vpcd card to ``PCSCTestReaders/cardReader``.
final class CardBench: Sendable {
    let reader: SimulatedReader
    let card: VirtualPCDCard

    /// Starts a card for `reader` once the reader is empty, and waits until pcscd sees it.
    init(
        _ reader: SimulatedReader, profile: ContactlessReaderProfile = .combined, reinsertAfter: Int? = nil
    ) async throws {
        try await PCSCTestReaders.waitFor(.empty)
        self.reader = reader
        card = try VirtualPCDCard(
            reader: reader,
            configuration: .init(
                port: PCSCTestReaders.cardPort, profile: profile, reinsertAfterMilliseconds: reinsertAfter))
        try card.start()
        try await PCSCTestReaders.waitFor(.present)
    }

    /// A bench with a factory tag of `tag`.
    convenience init(tag: SimulatedTag, profile: ContactlessReaderProfile = .combined) async throws {
        try await self.init(SimulatedReader(tag: tag), profile: profile)
    }

    /// Polls `device` until the tag shows (pcscd reported the card already: at once, unless
    /// the machine is busy).
    func poll(_ device: PCSCReaderDevice) async throws -> NFCTargetInfo {
        var target: NFCTargetInfo?
        _ = try await eventually(within: .seconds(60), every: .milliseconds(30)) {
            target = try await device.pollTargets().first
            return target != nil
        }
        guard let target else { throw PCSCTestReaders.BenchError(description: "the card never showed") }
        return target
    }

    /// Takes the card away and waits until pcscd sees the reader empty.
    func stop() async {
        card.stop()
        try? await PCSCTestReaders.waitFor(.empty)
    }
}
