import NFCReaders
import NFCSession
import SimulatedReader

/// A reader named on the command line: the libraries' ``NFCReaders/NFCReaderAddress``, with
/// its errors turned into the tool's exit statuses and messages.
typealias ReaderAddress = NFCReaderAddress

extension NFCReaderAddress {
    /// Parses `text`, given by `origin` (`--reader` or the environment variable).
    ///
    /// - Throws: a usage error for an unknown scheme or a reader URL that does not parse (the
    ///   message names what is wrong in it).
    init(parsing text: String, origin: String) throws(CommandLineError) {
        do {
            try self.init(parsing: text)
        } catch {
            throw .usage(
                NFCReaderAddress.hasKnownScheme(text)
                    ? "Invalid reader in \(origin): \(error.reason)"
                    : "Invalid reader '\(text)' in \(origin): \(error.reason)")
        }
    }

    /// Opens the reader (``NFCReaders/NFCReaderAddress/open(options:)``), telling `console` when
    /// it waits for a PC/SC reader to be plugged in.
    ///
    /// - Throws: ``ExitStatus/unavailable`` when pcscd is not running or the PC/SC reader did not
    ///   come, when libnfc cannot open the device (the message says what to check), and for a tag
    ///   file that cannot be read; a usage error for a tag file that does not match the URL or an
    ///   ambiguous reader name.
    func open(console: TagConsole? = nil, wait: Duration = .zero, exclusive: Bool = false)
        async throws(CommandLineError) -> any NFCReaderDevice
    {
        if case .simulated(let url, let text) = self {
            return try await Self.openSimulated(url, text: text, wait: wait).device
        }
        let options = NFCReaderOpenOptions(wait: wait, exclusive: exclusive) {
            console?.note("Waiting for a reader...")
        }
        do {
            return try await open(options: options)
        } catch {
            switch self {
            case .libnfc(let url): throw TagFailure.error(error, while: "opening the libnfc device \(url)")
            default: throw TagFailure.error(error, while: "opening the PC/SC reader \(self)")
            }
        }
    }

    /// Opens the simulated reader `url` (given as `text`): the device to use and the simulated
    /// reader itself (``NFCReaders/NFCReaderAddress/openSimulated(_:name:wait:)``).
    ///
    /// - Throws: ``ExitStatus/dataError`` for a tag file whose content is no tag the simulator
    ///   knows, ``ExitStatus/noInput`` for a supply folder that is missing, and the statuses of
    ///   ``TagFailure`` for the rest.
    static func openSimulated(
        _ url: SimulatedReaderURL, text: String, wait: Duration
    ) async throws(CommandLineError) -> (device: any NFCReaderDevice, reader: SimulatedReader) {
        do {
            return try await openSimulated(url, name: text, wait: wait)
        } catch {
            // A tag file whose content is no tag (invalid-tag-file) is bad input data, a missing
            // folder (tag-folder-missing) missing input: ``TagFailure/status(for:)``.
            throw TagFailure.error(error, while: "opening the reader \(text)")
        }
    }
}
