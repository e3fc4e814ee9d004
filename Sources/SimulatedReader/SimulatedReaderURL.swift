import NDEF
import NFCSession
import TagMemory
import TagSimulator

/// A simulated reader named as a URL: `sim:CHIP` with options after `?`, `&`-separated.
///
/// `sim:ntag215?file=/tmp/tag.nfc&remove-after=12&in-flight=tear`
///
/// Chips (``chipNames``, case-insensitive): `ntag210`, `ntag212`, `ntag213`, `ntag215`,
/// `ntag216`, `ultralight` (MF0ICU1), `ultralight-c` (MF0ICU2), `ultralight-ev1` or
/// `ultralight-ev1-48` (MF0UL11, 48 bytes of user memory), `ultralight-ev1-128` (MF0UL21), and
/// every chip's NXP type code (`nt2h1511`, `mf0ul21`, …), as in ``TagMemory/Type2ChipCatalogue``.
///
/// Options (each at most once; values may be percent-encoded, `%20`):
/// - `file=PATH`: keep the tag in this dump file (see ``SimulatedReader``).
/// - `uid=HEX`: the 7-byte UID of a new tag (`04A1B2C3D4E5F6`, `:` or `-` between bytes allowed).
/// - `remove-after=N`: the tags leave the field during the N-th command
///   (``TagSimulator/SimulatedField/Faults/removeAfterCommands``; 0: no tag from the start).
/// - `in-flight=complete|none|tear`: what that command does
///   (``TagSimulator/SimulatedField/InFlightOutcome``); `tear=1` is `in-flight=tear`.
///   Both need `remove-after`.
/// - `second-tag=1`: a second tag is in the field.
/// - `latency-ms=N`: each command takes N ms (at most 60000).
/// - `corrupt-every=N`: every N-th answer arrives corrupted (N ≥ 1).
///
/// Booleans are `1`/`0`, `true`/`false` or `yes`/`no`; numbers are decimal.
public struct SimulatedReaderURL: Sendable, Hashable, CustomStringConvertible {
    /// The chip simulated.
    public var chip: Type2Chip
    /// The dump file the tag is kept in.
    public var filePath: String?
    /// The UID of a new tag (one not loaded from a file); nil: ``TagSimulator/SimulatedType2Tag/defaultUID``.
    public var uid: [UInt8]?
    /// The faults to arm.
    public var faults: SimulatedField.Faults

    /// The scheme, with its colon.
    public static let scheme = "sim:"

    /// The chip names the URL accepts, in the order they are listed in messages.
    public static let chipNames: [(name: String, chip: Type2Chip)] = [
        ("ntag210", .ntag210), ("ntag212", .ntag212), ("ntag213", .ntag213), ("ntag215", .ntag215),
        ("ntag216", .ntag216), ("ultralight", .mifareUltralight), ("ultralight-c", .mifareUltralightC),
        ("ultralight-ev1", .mifareUltralightEV1MF0UL11), ("ultralight-ev1-48", .mifareUltralightEV1MF0UL11),
        ("ultralight-ev1-128", .mifareUltralightEV1MF0UL21),
    ]

    /// The largest latency accepted, in milliseconds.
    public static let maximumLatencyMilliseconds = 60_000

    /// Creates a URL value.
    public init(chip: Type2Chip, filePath: String? = nil, uid: [UInt8]? = nil, faults: SimulatedField.Faults = .none) {
        self.chip = chip
        self.filePath = filePath
        self.uid = uid
        self.faults = faults
    }

    /// Parses `text`.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` naming the part that is
    ///   wrong: the scheme, the chip (with the list of known ones), an option (unknown,
    ///   repeated, without `=`), or a value.
    public init(parsing text: String) throws(NFCReaderError) {
        guard text.lowercased().hasPrefix(Self.scheme) else {
            throw Self.error(text, "a simulated reader is named \"\(Self.scheme)CHIP\", for example sim:ntag215")
        }
        let rest = text.dropFirst(Self.scheme.count)
        let chipText = rest.prefix { $0 != "?" }
        let query = rest.dropFirst(chipText.count + 1)
        let chipName = chipText.lowercased()
        guard let chip = Self.chip(named: chipName) else {
            let known = Self.chipNames.map(\.name).joined(separator: ", ")
            let what = chipText.isEmpty ? "names no chip" : "chip \"\(chipText)\" is not one the simulator has"
            throw Self.error(text, "\(what); known chips: \(known), or an NXP type code such as nt2h1511")
        }
        self.init(chip: chip)
        var options = SimulatedReaderOptions(url: text)
        if rest.contains("?") {
            for item in query.split(separator: "&", omittingEmptySubsequences: false) {
                try options.take(item)
            }
        }
        filePath = options.filePath
        uid = options.uid
        faults = try options.faults()
    }

    /// The chip a name denotes: one of ``chipNames`` or a catalogue type code, case-insensitive.
    public static func chip(named name: String) -> Type2Chip? {
        let lower = name.lowercased()
        return chipNames.first { $0.name == lower }?.chip
            ?? Type2ChipCatalogue.all.first { $0.typeCode.lowercased() == lower }
    }

    /// The URL in canonical form: the first name of the chip, then the options that differ
    /// from the defaults, values percent-encoded where needed.
    public var description: String {
        let name = Self.chipNames.first { $0.chip == chip }?.name ?? chip.typeCode.lowercased()
        var items: [String] = []
        if let filePath { items.append("file=" + SimulatedReaderOptions.percentEncoded(filePath)) }
        if let uid { items.append("uid=" + NDEFHex.encode(uid, uppercase: true, separator: "")) }
        if let count = faults.removeAfterCommands {
            items.append("remove-after=\(count)")
            items.append("in-flight=\(faults.inFlight.rawValue)")
        }
        if faults.secondTag { items.append("second-tag=1") }
        if let latency = faults.latencyMilliseconds { items.append("latency-ms=\(latency)") }
        if let every = faults.corruptEveryNthResponse { items.append("corrupt-every=\(every)") }
        return Self.scheme + name + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
    }

    /// An ``NFCSession/NFCReaderError/Code/invalidParameter`` error about `url`.
    static func error(_ url: String, _ reason: String) -> NFCReaderError {
        NFCReaderError(.invalidParameter, "simulated reader \"\(url)\": \(reason)")
    }
}
