import TagMemory

/// Which Type 2 chip a tag is, and how that was found out.
///
/// NXP's identification procedure (NTAG213/215/216 datasheet 10.1, MF0ULX1 8.1; AN10833) is
/// GET_VERSION (60h), sent as the single byte 60h: readers that add a page argument make some
/// chips answer NAK (libfreefare issue 112). Chips without GET_VERSION (MIFARE Ultralight,
/// Ultralight C) answer NAK, which sends them back to IDLE (NTAG213/215/216 9.3): the session
/// selects the tag again and falls back on the capability container's size byte (T2T 1.1, 6.1)
/// and, when that leaves more than one candidate, on the number of readable pages (a READ past
/// the last page answers NAK, MF0ICU1 9.3).
public struct Type2Identification: Sendable, Hashable, CustomStringConvertible {
    /// How the chip was identified.
    public enum Method: String, Sendable, Hashable, Codable {
        /// An exact GET_VERSION answer listed in the catalogue.
        case version
        /// The data area size in the capability container matched one chip.
        case capabilityContainer
        /// The number of pages READ reaches matched one memory layout.
        case pageCount
        /// No method gave one chip: the tag is handled by its capability container alone.
        case unidentified
    }

    /// The chip, when identified.
    public var chip: Type2Chip?
    /// The GET_VERSION answer, if the tag gave one (also for chips not in the catalogue).
    public var version: [UInt8]?
    /// How ``chip`` was found.
    public var method: Method

    /// Creates an identification.
    public init(chip: Type2Chip?, version: [UInt8]?, method: Method) {
        self.chip = chip
        self.version = version
        self.method = method
    }

    /// Whether FAST_READ may be sent: only to a chip identified by its version, whose answer says it
    /// has the command (a tag that only looks like a chip by its size might not, and a NAK would
    /// cost a re-selection).
    var allowsFastRead: Bool {
        method == .version && chip?.features.contains(.fastRead) == true
    }

    public var description: String {
        let name = chip?.name ?? "unknown Type 2 chip"
        switch method {
        case .version: return "\(name) (GET_VERSION)"
        case .capabilityContainer: return "\(name) (by its capability container)"
        case .pageCount: return "\(name) (by its page count)"
        case .unidentified: return name
        }
    }
}
