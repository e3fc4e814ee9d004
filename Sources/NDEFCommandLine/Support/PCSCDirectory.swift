import NFCSession
import PCSCReader

/// How commands ask pcscd about its readers: the reader names, whether a tag is on one, and
/// their changes. ``system`` asks the real pcscd; tests running commands in process supply their
/// own answers, so that no PC/SC call is made from the test process.
struct PCSCDirectory: Sendable {
    /// pcscd's reader names, in its order.
    var names: @Sendable () async throws(NFCReaderError) -> [String]
    /// Whether a tag is on the reader; nil when pcscd does not say.
    var tagPresent: @Sendable (String) async -> Bool?
    /// The readers as they come and go (``PCSCReader/PCSCReaders/watchReaders()``).
    var watchReaders: @Sendable () -> AsyncThrowingStream<PCSCReaderEvent, any Error> = {
        AsyncThrowingStream { $0.finish(throwing: NFCReaderError(.readerUnavailable, "pcscd is not running")) }
    }
    /// The tag on a reader as it comes and goes (``PCSCReader/PCSCReaders/watchCard(in:)``).
    var watchCard: @Sendable (String) -> AsyncThrowingStream<PCSCCardEvent, any Error> = { _ in
        AsyncThrowingStream { $0.finish() }
    }

    /// The real pcscd.
    static let system = PCSCDirectory(
        names: { () throws(NFCReaderError) in try await PCSCReaders.names() },
        tagPresent: { name in await ReadersCommand.tagPresent(in: name) },
        watchReaders: { PCSCReaders.watchReaders() },
        watchCard: { PCSCReaders.watchCard(in: $0) })

    /// No pcscd: every question is answered as if it were not running.
    static let unavailable = PCSCDirectory(
        names: { () throws(NFCReaderError) in
            throw NFCReaderError(.readerUnavailable, "pcscd is not running")
        },
        tagPresent: { _ in nil })
}
