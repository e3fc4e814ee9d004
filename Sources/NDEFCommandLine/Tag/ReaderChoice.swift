import Glibc
import LibNFCReader
import NFCReaders
import NFCSession
import PCSCReader

/// The reader a tag command uses when `--reader` gives a number or nothing.
///
/// The readers that can be chosen are pcscd's readers then libnfc's devices, numbered from 1 in
/// that order, as `ndeftool readers` lists them (``ReaderCandidate``). Without `--reader` (and
/// without `NDEFTOOL_READER`) the choice is the remembered reader (``RememberedReader``) when it
/// is connected, else the only reader, else a question on a terminal, else an error that lists
/// the readers with the `--reader` that names each (a script must say which).
enum ReaderChoice {
    /// The readers on both backends now, and why a backend could not be asked.
    ///
    /// A remembered libnfc device on a serial port (`libnfc:pn532_uart:/dev/ttyUSB0`) is listed
    /// after libnfc's own when its device file exists: libnfc never scans serial ports, so it
    /// would otherwise never be found again (``unscannedDevice(_:listed:)``).
    static func candidates(
        pcsc: PCSCDirectory, libnfc: LibNFCDirectory, remembered: String? = nil
    ) async -> (readers: [ReaderCandidate], problems: [String]) {
        var readers: [ReaderCandidate] = []
        var problems: [String] = []
        do {
            for name in try await pcsc.names() {
                let url = PCSCReaderURL(selector: .name(name))
                readers.append(ReaderCandidate(number: readers.count + 1, address: .pcsc(url, text: url.description)))
            }
        } catch {
            problems.append("PC/SC: \(error.reason)")
        }
        do {
            for connstring in try await libnfc.connstrings() {
                let url = LibNFCReaderURL(selector: .connstring(connstring))
                readers.append(ReaderCandidate(number: readers.count + 1, address: .libnfc(url)))
            }
        } catch {
            problems.append("libnfc: \(error.reason)")
        }
        let listed = readers.map(\.address)
        if let device = unscannedDevice(remembered, listed: listed) {
            readers.append(ReaderCandidate(number: readers.count + 1, address: .libnfc(device)))
        }
        return (readers, problems)
    }

    /// The remembered reader `text` when it is a libnfc device on a serial port or bus that libnfc
    /// does not scan (`pn532_uart:`, `arygon:`, `pn532_spi:`, `pn532_i2c:`), not among `listed`,
    /// and its device file (`/dev/ttyUSB0`) exists.
    static func unscannedDevice(_ text: String?, listed: [ReaderAddress]) -> LibNFCReaderURL? {
        guard let text, case .libnfc(let url)? = try? ReaderAddress(parsing: text, origin: RememberedReader.fileName),
            case .connstring(let connstring) = url.selector, !listed.contains(.libnfc(url))
        else { return nil }
        let parts = connstring.split(separator: ":", maxSplits: 2)
        let unscanned: Set<Substring> = ["pn532_uart", "arygon", "pn532_spi", "pn532_i2c"]
        guard parts.count >= 2, let driver = parts.first, unscanned.contains(driver) else { return nil }
        return access(String(parts[1]), F_OK) == 0 ? url : nil
    }

    /// The reader numbered `number` in `ndeftool readers`.
    ///
    /// - Throws: a usage error when there is no such reader (the message lists those there are).
    static func numbered(
        _ number: Int, pcsc: PCSCDirectory, libnfc: LibNFCDirectory, remembered: String? = nil
    ) async throws(CommandLineError) -> ReaderAddress {
        let (readers, problems) = await candidates(pcsc: pcsc, libnfc: libnfc, remembered: remembered)
        if let reader = readers.first(where: { $0.number == number }) { return reader.address }
        if readers.isEmpty {
            throw CommandLineError(
                .unavailable,
                "There is no reader \(number): no PC/SC reader or libnfc device is connected"
                    + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"))
        }
        throw .usage("There is no reader \(number); the readers are:\n" + list(readers))
    }

    /// The reader to use when none is named.
    ///
    /// - Parameter console: where to ask when several readers are connected and a person is at
    ///   the terminal; nil (or no terminal) makes several readers an error.
    /// - Throws: ``ExitStatus/unavailable`` when there is no reader; a usage error when there are
    ///   several and none is remembered nor chosen: the message lists them and says how to choose.
    static func automatic(
        remembered: RememberedReader, pcsc: PCSCDirectory, libnfc: LibNFCDirectory = .none,
        console: TagConsole? = nil
    ) async throws(CommandLineError) -> ReaderAddress {
        let rememberedText = remembered.load()
        let (readers, problems) = await candidates(pcsc: pcsc, libnfc: libnfc, remembered: rememberedText)
        if let text = rememberedText, let address = rememberedAddress(text, among: readers) {
            return address
        }
        if readers.count == 1, let only = readers.first { return only.address }
        guard readers.count > 1 else {
            let example = "for example --reader sim:ntag215 (a simulated NTAG215; add ?file=tag.nfc to keep it)"
            throw CommandLineError(
                .unavailable,
                "No reader given, and no PC/SC reader or libnfc device is connected"
                    + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))")
                    + ": connect one, or use --reader URL or set \(TagOptions.readerVariable), " + example)
        }
        if let console, console.isInteractive {
            let answer = await console.ask(
                "Several readers are connected:\n" + list(readers) + "\nWhich one (1-\(readers.count))? ")
            let trimmed = answer.map { String($0.filter { !$0.isWhitespace }) } ?? ""
            if let number = Int(trimmed), let reader = readers.first(where: { $0.number == number }) {
                return reader.address
            }
            throw .usage("No reader chosen ('\(trimmed)' is not one of 1 to \(readers.count))")
        }
        throw .usage(
            "No reader given, and \(readers.count) readers are connected: choose one with --reader "
                + "(or \(TagOptions.readerVariable)):\n" + list(readers))
    }

    /// The remembered reader `text` when it is connected now: a PC/SC reader by its name (with the
    /// URL's options), a libnfc device libnfc lists; any other reader URL as it is.
    static func rememberedAddress(_ text: String, among readers: [ReaderCandidate]) -> ReaderAddress? {
        guard let address = try? ReaderAddress(parsing: text, origin: RememberedReader.fileName) else { return nil }
        switch address {
        case .pcsc(let url, _):
            guard case .name(let wanted) = url.selector else { return nil }
            let connected = readers.contains { candidate in
                if case .pcsc(let other, _) = candidate.address, case .name(let name) = other.selector {
                    return name == wanted
                }
                return false
            }
            return connected ? address : nil
        case .libnfc(let url):
            return readers.contains { $0.address == .libnfc(url) } ? address : nil
        case .simulated:
            return address
        }
    }

    /// The readers, one a line: `  --reader 1  pcsc:ACS%20ACR122U%2000%2000  (ACS ACR122U 00 00)`,
    /// with a PC/SC reader's name as pcscd gives it when its URL had to encode it.
    static func list(_ readers: [ReaderCandidate]) -> String {
        readers.map { candidate in
            let url = candidate.address.description
            var line = "  --reader \(candidate.number)  \(url)"
            if case .pcsc(let pcsc, _) = candidate.address, case .name(let name) = pcsc.selector,
                url != PCSCReaderURL.scheme + name
            {
                line += "  (\(name))"
            }
            return line
        }.joined(separator: "\n")
    }
}

/// A reader that can be chosen by number: its place in `ndeftool readers`, from 1, and its URL.
struct ReaderCandidate: Sendable, Hashable {
    /// Its number, from 1: pcscd's readers first, then libnfc's devices.
    var number: Int
    /// The reader.
    var address: ReaderAddress
}
