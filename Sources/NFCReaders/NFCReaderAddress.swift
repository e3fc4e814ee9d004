import LibNFCReader
import NFCSession
import PCSCReader
import SimulatedReader

/// A reader named by a URL, whichever backend serves it: `sim:CHIP?...` (a simulated tag,
/// ``SimulatedReader/SimulatedReaderURL``), `pcsc:NAME` (a PC/SC reader served by pcscd,
/// ``PCSCReader/PCSCReaderURL``) or `libnfc:CONNSTRING` (a libnfc device,
/// ``LibNFCReader/LibNFCReaderURL``).
///
/// ```swift
/// let reader = try await NFCReaderAddress(parsing: "sim:ntag215").open()
/// ```
public enum NFCReaderAddress: Sendable, Hashable, CustomStringConvertible {
    /// A simulated reader, with its checked URL and the text as given.
    case simulated(SimulatedReaderURL, text: String)
    /// A PC/SC reader, with its checked URL and the text as given.
    case pcsc(PCSCReaderURL, text: String)
    /// A libnfc device, with its checked URL.
    case libnfc(LibNFCReaderURL)

    /// The schemes recognised: `sim:`, `pcsc:` and `libnfc:`.
    public static let schemes = ["sim:", "pcsc:", "libnfc:"]

    /// Whether `text` starts with one of the ``schemes`` (in any case): a URL that then fails to
    /// parse names a reader wrongly, one without a known scheme names none.
    public static func hasKnownScheme(_ text: String) -> Bool {
        let lower = text.lowercased()
        return schemes.contains { lower.hasPrefix($0) }
    }

    /// Parses a reader URL.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for an unknown scheme or a
    ///   URL its backend does not accept (the reason names what is wrong in it).
    public init(parsing text: String) throws(NFCReaderError) {
        let lower = text.lowercased()
        if lower.hasPrefix("sim:") {
            self = .simulated(try SimulatedReaderURL(parsing: text), text: text)
        } else if lower.hasPrefix("pcsc:") {
            self = .pcsc(try PCSCReaderURL(parsing: text), text: text)
        } else if lower.hasPrefix("libnfc:") {
            self = .libnfc(try LibNFCReaderURL(parsing: text))
        } else {
            throw NFCReaderError(
                .invalidParameter, "a reader is sim:CHIP, pcsc:NAME or libnfc:CONNSTRING, for example sim:ntag215")
        }
    }

    /// The URL as given (a libnfc URL in its canonical form).
    public var description: String {
        switch self {
        case .simulated(_, let text): text
        case .pcsc(_, let text): text
        case .libnfc(let url): url.description
        }
    }

    /// The name that identifies the reader however its URL is spelled: a simulated reader's
    /// canonical URL without its fault injection (the same tag file or supply, options in any
    /// order), a PC/SC reader's or libnfc device's canonical URL. A batch station is known by
    /// it, in the journal and in a database job, from one run to the next.
    public var identity: String {
        switch self {
        case .simulated(let url, _): url.withoutFaults.description
        case .pcsc(let url, _): url.description
        case .libnfc(let url): url.description
        }
    }

    /// Opens the reader.
    ///
    /// A simulated reader with `unplug-after` is wrapped in a ``NFCSession/ReconnectingReader``
    /// that reconnects it. A PC/SC reader that is not there yet is waited for up to
    /// ``NFCReaderOpenOptions/wait``, and is wrapped in a ``NFCSession/ReconnectingReader`` that
    /// reopens it by its resolved name when it goes away. A libnfc device is opened at once
    /// (libnfc gives no notice of devices arriving) and wrapped in a
    /// ``NFCSession/ReconnectingReader`` that reopens it by its connection string.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when pcscd is not running,
    ///   the PC/SC reader did not come, libnfc cannot open the device or a tag file cannot be
    ///   read; ``NFCSession/NFCReaderError/Code/invalidParameter`` for a tag file that does not
    ///   match the URL or an ambiguous reader name.
    public func open(options: NFCReaderOpenOptions = NFCReaderOpenOptions()) async throws(NFCReaderError)
        -> any NFCReaderDevice
    {
        let policy = ReconnectPolicy(timeout: max(options.wait, .seconds(10)))
        switch self {
        case .simulated(let url, let text):
            return try await Self.openSimulated(url, name: text, wait: options.wait).device
        case .pcsc(var url, _):
            url.exclusive = url.exclusive || options.exclusive
            let device = try await Self.openPCSC(url, options: options)
            let again = PCSCReaderURL(selector: .name(device.name), profile: url.profile, exclusive: url.exclusive)
            return ReconnectingReader(device, policy: policy) { () throws(NFCReaderError) in
                try await PCSCReaders.open(again)
            }
        case .libnfc(let url):
            let device = try await LibNFCDevices.open(url)
            let connstring = device.name
            return ReconnectingReader(device, policy: policy) { () throws(NFCReaderError) in
                try await LibNFCReaderDevice.open(connstring: connstring)
            }
        }
    }

    /// Opens the simulated reader `url` (named `name` in messages): the device to use (wrapped
    /// in a ``NFCSession/ReconnectingReader`` when the URL has `unplug-after`) and the simulated
    /// reader itself, for the calls only a simulator has (presenting and removing tags).
    ///
    /// - Throws: the errors of ``SimulatedReader/SimulatedReader/init(url:name:)``.
    public static func openSimulated(
        _ url: SimulatedReaderURL, name: String, wait: Duration = .zero
    ) async throws(NFCReaderError) -> (device: any NFCReaderDevice, reader: SimulatedReader) {
        let reader = try await SimulatedReader(url: url, name: name)
        guard url.unplug != nil else { return (reader, reader) }
        // A simulated reader that is unplugged comes back as a PC/SC reader does.
        let device = ReconnectingReader(reader, policy: ReconnectPolicy(timeout: max(wait, .seconds(10)))) {
            () throws(NFCReaderError) in
            try await reader.reconnect()
            return reader
        }
        return (device, reader)
    }

    /// The PC/SC reader `url` names, waiting up to the options' wait for it to be plugged in.
    static func openPCSC(_ url: PCSCReaderURL, options: NFCReaderOpenOptions) async throws(NFCReaderError)
        -> PCSCReaderDevice
    {
        var names = try await PCSCReaders.names()
        if (try? url.resolve(among: names)) == nil, options.wait > .zero {
            options.onWaiting?()
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: options.wait)
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

/// How ``NFCReaderAddress/open(options:)`` opens a reader.
public struct NFCReaderOpenOptions: Sendable {
    /// How long to wait for a PC/SC reader that is not plugged in yet (zero: not at all), and at
    /// least how long a reader that goes away is waited for before its operations fail (never
    /// less than 10 seconds).
    public var wait: Duration
    /// Whether a PC/SC reader is opened for this process alone (`SCARD_SHARE_EXCLUSIVE`).
    public var exclusive: Bool
    /// Called once when the wait for a PC/SC reader begins (to tell a person to plug it in).
    public var onWaiting: (@Sendable () -> Void)?

    /// Options with the given values; by default no wait, shared access and no callback.
    public init(wait: Duration = .zero, exclusive: Bool = false, onWaiting: (@Sendable () -> Void)? = nil) {
        self.wait = wait
        self.exclusive = exclusive
        self.onWaiting = onWaiting
    }
}

/// Opens the reader the URL `url` names (`sim:ntag215`, `pcsc:ACR122U`, `libnfc:pn532_uart:/dev/ttyUSB0`),
/// as ``NFCReaderAddress/open(options:)`` does.
///
/// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for a URL that names no reader,
///   and the errors of ``NFCReaderAddress/open(options:)``.
public func openReader(_ url: String, options: NFCReaderOpenOptions = NFCReaderOpenOptions())
    async throws(NFCReaderError) -> any NFCReaderDevice
{
    try await NFCReaderAddress(parsing: url).open(options: options)
}
