import NFCSession
import SimulatedReader

/// A reader named on the command line: `sim:CHIP?...` (a simulated tag, see
/// ``SimulatedReader/SimulatedReaderURL``), `pcsc:NAME` (a PC/SC reader) or
/// `libnfc:CONNSTRING` (a libnfc device).
///
/// Only simulated readers can be opened in this build; the other two forms are recognised so
/// that they fail with ``ExitStatus/unavailable`` and say so, rather than as a typo.
enum ReaderAddress: Sendable, Hashable, CustomStringConvertible {
    /// A simulated reader, with its checked URL and the text as given.
    case simulated(SimulatedReaderURL, text: String)
    /// A PC/SC reader by name (empty: the first one).
    case pcsc(String)
    /// A libnfc device by connection string (empty: the first one).
    case libnfc(String)

    /// The schemes recognised, as help and errors list them.
    static let schemes = ["sim:", "pcsc:", "libnfc:"]

    /// Parses `text`, given by `origin` (`--reader` or the environment variable).
    ///
    /// - Throws: a usage error for an unknown scheme or a simulated reader URL that does not
    ///   parse (the message names what is wrong in it).
    init(parsing text: String, origin: String) throws(CommandLineError) {
        let lower = text.lowercased()
        if lower.hasPrefix("sim:") {
            do {
                self = .simulated(try SimulatedReaderURL(parsing: text), text: text)
            } catch {
                throw .usage("Invalid reader in \(origin): \(error.reason)")
            }
        } else if lower.hasPrefix("pcsc:") {
            self = .pcsc(String(text.dropFirst(5)))
        } else if lower.hasPrefix("libnfc:") {
            self = .libnfc(String(text.dropFirst(7)))
        } else {
            throw .usage(
                "Invalid reader '\(text)' in \(origin): a reader is sim:CHIP, pcsc:NAME or libnfc:CONNSTRING, "
                    + "for example sim:ntag215")
        }
    }

    var description: String {
        switch self {
        case .simulated(_, let text): text
        case .pcsc(let name): "pcsc:" + name
        case .libnfc(let connection): "libnfc:" + connection
        }
    }

    /// Opens the reader.
    ///
    /// - Throws: ``ExitStatus/unavailable`` for PC/SC and libnfc readers (not in this build)
    ///   and for a tag file that cannot be read; a usage error for a tag file that does not
    ///   match the URL.
    func open() async throws(CommandLineError) -> any NFCReaderDevice {
        switch self {
        case .simulated(let url, let text):
            do {
                return try await SimulatedReader(url: url, name: text)
            } catch {
                throw TagFailure.error(error, while: "opening the reader \(text)")
            }
        case .pcsc:
            throw CommandLineError(
                .unavailable,
                "PC/SC readers (\(description)) are not available in this build of ndeftool yet; "
                    + "use a simulated reader such as --reader sim:ntag215")
        case .libnfc:
            throw CommandLineError(
                .unavailable,
                "libnfc devices (\(description)) are not available in this build of ndeftool yet; "
                    + "use a simulated reader such as --reader sim:ntag215")
        }
    }
}
