import LibNFCReader
import NFCSession
import PCSCReader
import SimulatedReader

/// A reader named on the command line: `sim:CHIP?...` (a simulated tag, see
/// ``SimulatedReader/SimulatedReaderURL``), `pcsc:NAME` (a PC/SC reader, see
/// ``PCSCReader/PCSCReaderURL``) or `libnfc:CONNSTRING` (a libnfc device, see
/// ``LibNFCReader/LibNFCReaderURL``).
enum ReaderAddress: Sendable, Hashable, CustomStringConvertible {
    /// A simulated reader, with its checked URL and the text as given.
    case simulated(SimulatedReaderURL, text: String)
    /// A PC/SC reader, with its checked URL and the text as given.
    case pcsc(PCSCReaderURL, text: String)
    /// A libnfc device, with its checked URL.
    case libnfc(LibNFCReaderURL)

    /// The schemes recognised, as help and errors list them.
    static let schemes = ["sim:", "pcsc:", "libnfc:"]

    /// Parses `text`, given by `origin` (`--reader` or the environment variable).
    ///
    /// - Throws: a usage error for an unknown scheme or a reader URL that does not parse (the
    ///   message names what is wrong in it).
    init(parsing text: String, origin: String) throws(CommandLineError) {
        let lower = text.lowercased()
        if lower.hasPrefix("sim:") {
            do {
                self = .simulated(try SimulatedReaderURL(parsing: text), text: text)
            } catch {
                throw .usage("Invalid reader in \(origin): \(error.reason)")
            }
        } else if lower.hasPrefix("pcsc:") {
            do {
                self = .pcsc(try PCSCReaderURL(parsing: text), text: text)
            } catch {
                throw .usage("Invalid reader in \(origin): \(error.reason)")
            }
        } else if lower.hasPrefix("libnfc:") {
            do {
                self = .libnfc(try LibNFCReaderURL(parsing: text))
            } catch {
                throw .usage("Invalid reader in \(origin): \(error.reason)")
            }
        } else {
            throw .usage(
                "Invalid reader '\(text)' in \(origin): a reader is sim:CHIP, pcsc:NAME or libnfc:CONNSTRING, "
                    + "for example sim:ntag215")
        }
    }

    var description: String {
        switch self {
        case .simulated(_, let text): text
        case .pcsc(_, let text): text
        case .libnfc(let url): url.description
        }
    }

    /// Opens the reader. A simulated reader with `unplug-after` is wrapped in a
    /// ``NFCSession/ReconnectingReader`` that reconnects it (``SimulatedReader/reconnect()``).
    /// A PC/SC reader that is not there yet is waited for up to `wait`
    /// ("Waiting for a reader..." on `console`), and is wrapped in a
    /// ``NFCSession/ReconnectingReader`` that reopens it by its resolved name when it goes away.
    /// A libnfc device is opened at once (libnfc has no notice of devices arriving), and wrapped
    /// in a ``NFCSession/ReconnectingReader`` that reopens it by its connection string.
    ///
    /// - Throws: ``ExitStatus/unavailable`` when pcscd is not running or the PC/SC reader did not
    ///   come, when libnfc cannot open the device (the message says what to check), and for a tag
    ///   file that cannot be read; a usage error for a tag file that does not match the URL or an
    ///   ambiguous reader name.
    func open(console: TagConsole? = nil, wait: Duration = .zero, exclusive: Bool = false)
        async throws(CommandLineError) -> any NFCReaderDevice
    {
        switch self {
        case .simulated(let url, let text):
            return try await Self.openSimulated(url, text: text, wait: wait).device
        case .pcsc(var url, let text):
            url.exclusive = url.exclusive || exclusive
            do {
                let device = try await Self.openPCSC(url, console: console, wait: wait)
                let again = PCSCReaderURL(
                    selector: .name(device.name), profile: url.profile, exclusive: url.exclusive)
                let policy = ReconnectPolicy(timeout: max(wait, .seconds(10)))
                return ReconnectingReader(device, policy: policy) { () throws(NFCReaderError) in
                    try await PCSCReaders.open(again)
                }
            } catch {
                throw TagFailure.error(error, while: "opening the PC/SC reader \(text)")
            }
        case .libnfc(let url):
            do {
                let device = try await LibNFCDevices.open(url)
                let connstring = device.name
                let policy = ReconnectPolicy(timeout: max(wait, .seconds(10)))
                return ReconnectingReader(device, policy: policy) { () throws(NFCReaderError) in
                    try await LibNFCReaderDevice.open(connstring: connstring)
                }
            } catch {
                throw TagFailure.error(error, while: "opening the libnfc device \(url)")
            }
        }
    }

    /// Opens the simulated reader `url` (given as `text`): the device to use (wrapped in a
    /// ``NFCSession/ReconnectingReader`` when it has `unplug-after`) and the simulated reader itself.
    static func openSimulated(
        _ url: SimulatedReaderURL, text: String, wait: Duration
    ) async throws(CommandLineError) -> (device: any NFCReaderDevice, reader: SimulatedReader) {
        do {
            let reader = try await SimulatedReader(url: url, name: text)
            guard url.unplug != nil else { return (reader, reader) }
            // A simulated reader that is unplugged comes back as a PC/SC reader does.
            let device = ReconnectingReader(reader, policy: ReconnectPolicy(timeout: max(wait, .seconds(10)))) {
                () throws(NFCReaderError) in
                try await reader.reconnect()
                return reader
            }
            return (device, reader)
        } catch {
            // A tag file whose content is no tag the simulator knows is bad input data.
            if error.code == .invalidParameter, error.reason.hasPrefix("the tag file") {
                throw CommandLineError(.dataError, "opening the reader \(text): \(error.reason)")
            }
            // A supply's folder is input that is missing.
            if error.reason.hasPrefix("the supply folder") {
                throw CommandLineError(.noInput, "opening the reader \(text): \(error.reason)")
            }
            throw TagFailure.error(error, while: "opening the reader \(text)")
        }
    }

    /// The PC/SC reader `url` names, waiting up to `wait` for it to be plugged in.
    static func openPCSC(
        _ url: PCSCReaderURL, console: TagConsole?, wait: Duration
    ) async throws(NFCReaderError) -> PCSCReaderDevice {
        var names = try await PCSCReaders.names()
        if (try? url.resolve(among: names)) == nil, wait > .zero {
            console?.note("Waiting for a reader...")
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: wait)
            while (try? url.resolve(among: names)) == nil, clock.now < deadline {
                if Task.isCancelled { throw NFCReaderError(.cancelled, "the wait for a reader was cancelled") }
                let remaining = clock.now.duration(to: deadline)
                if names.isEmpty {
                    names = try await PCSCReaders.discover(timeout: remaining)
                } else {
                    try? await Task.sleep(for: min(.milliseconds(250), remaining))
                    names = try await PCSCReaders.names()
                }
            }
        }
        let name = try url.resolve(among: names)
        return PCSCReaderDevice(
            readerName: name, profile: url.profile, exclusive: url.exclusive, apduLength: url.apduLength)
    }
}
