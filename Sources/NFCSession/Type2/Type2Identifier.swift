import NFCWireFormat
import TagMemory

/// Finds out which Type 2 chip a freshly selected tag is (see ``Type2Identification``).
///
/// Commands, in order, each only when the step before left more than one candidate:
/// 1. GET_VERSION 60h as one byte (NTAG213/215/216 10.1; libfreefare issue 112), when the reader
///    passes raw commands: an exact catalogue answer ends the search. A NAK (MIFARE Ultralight and
///    Ultralight C have no GET_VERSION) sends the tag to IDLE (NTAG213/215/216 9.3, MF0ICU2 8.3):
///    the tag is selected again and only chips without GET_VERSION stay candidates.
/// 2. READ 30h 00h: pages 0-3, whose capability container announces the data area size (T2T 1.1,
///    6.1); candidates whose formatter writes another size drop out, unless none is left.
/// 3. READ past the last page of a candidate answers NAK (MF0ICU1 9.3, NTAG213/215/216 10.2): a
///    binary search over the candidates' readable page counts, selecting the tag again after each
///    NAK. Chips with the same page count and the same memory layout (MF0UL11 and NTAG210, MF0UL21
///    and NTAG212) are not told apart: the first is taken, which gives the right pages and locks.
///
/// A PC/SC ATR names every Type 2 chip "MIFARE Ultralight" (PC/SC Part 3 supplement, card name
/// 0003h for NTAG21x as well), so it adds nothing here.
struct Type2Identifier {
    let reader: any NFCReaderDevice
    let target: NFCTargetInfo

    /// What GET_VERSION gave.
    private enum VersionAnswer {
        case version([UInt8])
        case refused
        case unavailable
    }

    /// Identifies the selected tag, leaving it selected (ACTIVE).
    func identify() async throws(NFCReaderError) -> Type2Identification {
        var versionRefused = false
        if reader.capabilities.supportsRawCommands {
            switch try await askVersion() {
            case .version(let version):
                let chip = Type2ChipCatalogue.chip(forVersion: version)
                return Type2Identification(chip: chip, version: version, method: chip == nil ? .unidentified : .version)
            case .refused:
                versionRefused = true
            case .unavailable:
                break
            }
        }
        var candidates = Type2ChipCatalogue.all.filter { !versionRefused || $0.versionResponses.isEmpty }
        let head = try await readForProbe(page: 0)
        if let head, let cc = try? Type2CapabilityContainer(bytes: head[12..<16]), cc.problem == nil {
            let bySize = candidates.filter { $0.capabilityContainerDataAreaSize == cc.dataAreaSize }
            if !bySize.isEmpty { candidates = bySize }
        }
        if candidates.count == 1, let chip = candidates.first {
            return Type2Identification(chip: chip, version: nil, method: .capabilityContainer)
        }
        guard !candidates.isEmpty, let count = try await probePageCount(candidates) else {
            return Type2Identification(chip: nil, version: nil, method: .unidentified)
        }
        let matches = candidates.filter { Self.readablePageCount($0) == count }
        guard let first = matches.first, matches.allSatisfy({ Self.sameLayout($0, first) }) else {
            return Type2Identification(chip: nil, version: nil, method: .unidentified)
        }
        return Type2Identification(chip: first, version: nil, method: .pageCount)
    }

    /// GET_VERSION, selecting the tag again after a refusal.
    private func askVersion() async throws(NFCReaderError) -> VersionAnswer {
        do {
            let answer = try await reader.transceive(Type2Command.getVersion.frame())
            if case .data(let bytes) = answer, bytes.count == 8 { return .version(bytes) }
        } catch {
            switch error.code {
            case .unsupportedFeature:
                return .unavailable
            case .tagResponseError:
                // A garbled answer says nothing about the chip: select again, keep every candidate.
                try await reader.select(target)
                return .unavailable
            case .tagConnectionLost:
                // Some readers report a NAK as silence; a tag that answers the selection refused.
                break
            default:
                throw error
            }
        }
        try await reader.select(target)
        return .refused
    }

    /// READ of `page`: the 16 bytes, or nil after a NAK (the tag is selected again).
    private func readForProbe(page: Int) async throws(NFCReaderError) -> [UInt8]? {
        do {
            let answer = try await reader.transceive(Type2Command.read.frame([UInt8(truncatingIfNeeded: page)]))
            if case .data(let bytes) = answer, bytes.count == 16 { return bytes }
        } catch {
            guard error.code == .tagConnectionLost || error.code == .tagResponseError else { throw error }
        }
        try await reader.select(target)
        return nil
    }

    /// The readable page count among the candidates' counts, found by READs just past them.
    private func probePageCount(_ candidates: [Type2Chip]) async throws(NFCReaderError) -> Int? {
        let counts = Set(candidates.map(Self.readablePageCount)).sorted()
        guard counts.count > 1 else { return counts.first }
        // The answer is counts[low...high]; READ at counts[k] succeeds iff the tag has more pages.
        var low = 0
        var high = counts.count - 1
        while low < high {
            let middle = (low + high) / 2
            if try await readForProbe(page: counts[middle]) != nil {
                low = middle + 1
            } else {
                high = middle
            }
        }
        // A tag with fewer pages than the smallest candidate is taken for it: no chip that small
        // is in the catalogue, and the capability container still bounds every access.
        return counts[low]
    }

    /// The pages READ reaches on `chip`: up to the MIFARE Ultralight C key pages, else all.
    static func readablePageCount(_ chip: Type2Chip) -> Int {
        chip.unreadablePages?.lowerBound ?? chip.pageCount
    }

    /// Whether two chips have the same pages, lock bits and configuration pages.
    private static func sameLayout(_ lhs: Type2Chip, _ rhs: Type2Chip) -> Bool {
        lhs.pageCount == rhs.pageCount && lhs.userPages == rhs.userPages && lhs.dynamicLock == rhs.dynamicLock
            && lhs.configurationPages == rhs.configurationPages && lhs.tripleDESPages == rhs.tripleDESPages
    }
}

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
