import NFCSession
import PCSCReader

/// How commands ask pcscd about its readers: the reader names and whether a tag is on one.
/// ``system`` asks the real pcscd; tests running commands in process supply their own answers,
/// so that no PC/SC call is made from the test process.
struct PCSCDirectory: Sendable {
    /// pcscd's reader names, in its order.
    var names: @Sendable () async throws(NFCReaderError) -> [String]
    /// Whether a tag is on the reader; nil when pcscd does not say.
    var tagPresent: @Sendable (String) async -> Bool?

    /// The real pcscd.
    static let system = PCSCDirectory(
        names: { () throws(NFCReaderError) in try await PCSCReaders.names() },
        tagPresent: { name in await ReadersCommand.tagPresent(in: name) })

    /// No pcscd: every question is answered as if it were not running.
    static let unavailable = PCSCDirectory(
        names: { () throws(NFCReaderError) in
            throw NFCReaderError(.readerUnavailable, "pcscd is not running")
        },
        tagPresent: { _ in nil })
}
