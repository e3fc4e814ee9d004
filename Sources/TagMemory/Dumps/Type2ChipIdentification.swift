/// Which Type 2 chip a dump comes from, and what that was told from.
///
/// ``TagDump/chipIdentification`` looks at the evidence in this order and stops at the first
/// the dump has, so a weaker clue never overrides a stronger one:
/// 1. the GET_VERSION response (8 bytes, not all zero: tools write zeros when the tag did not
///    answer), matched exactly against ``Type2ChipCatalogue/chip(forVersion:)``;
/// 2. the chip name the file states (a Flipper name such as `Mifare Ultralight 11`, or a
///    catalogue product name such as `NTAG213`);
/// 3. the number of pages, through ``Type2ChipCatalogue/chips(forPageCount:)`` (what libnfc's
///    `nfc-mfultralight` reads: 16, 20, 41, 45, 135 or 231 pages).
///
/// When GET_VERSION or the name denote a chip the catalogue does not describe (an NTAG I2C, for
/// example) there are no candidates: the page count is not consulted, since a chip of the same
/// size can have another memory map (NTAG I2C 1k and NTAG216 both have 231 pages).
public struct Type2ChipIdentification: Sendable, Hashable {
    /// What the chip was told from.
    public enum Evidence: Sendable, Hashable {
        /// The GET_VERSION response recorded in the dump.
        case getVersion([UInt8])
        /// The chip name the dump file states.
        case chipName(String)
        /// The number of pages in the memory image.
        case pageCount(Int)
    }

    /// What the chip was told from.
    public var evidence: Evidence
    /// The catalogue chips that fit, most likely first: empty when the evidence names a chip
    /// outside the catalogue, two for the ambiguous page counts 20 (MF0UL11, NTAG210) and 41
    /// (MF0UL21, NTAG212), whose memory layouts are the same.
    public var candidates: [Type2Chip]

    /// Creates an identification.
    public init(evidence: Evidence, candidates: [Type2Chip]) {
        self.evidence = evidence
        self.candidates = candidates
    }

    /// The chip to read the memory image with: the first candidate, if any.
    public var chip: Type2Chip? { candidates.first }

    /// The PWD page, when every candidate keeps PWD in the same page (see
    /// ``Type2Chip/configurationPages``); nil without candidates or PWD_AUTH.
    public var passwordPage: Int? {
        let pages = Set(candidates.map { $0.configurationPages?.password })
        guard pages.count == 1, let page = pages.first else { return nil }
        return page
    }
}

extension TagDump {
    /// The chip of a Type 2 dump, told from GET_VERSION, the file's chip name or the page
    /// count (see ``Type2ChipIdentification``); nil for a MIFARE Classic image.
    public var chipIdentification: Type2ChipIdentification? {
        guard layout == .type2 else { return nil }
        if let version, version.count == 8, version.contains(where: { $0 != 0 }) {
            let chip = Type2ChipCatalogue.chip(forVersion: version)
            return Type2ChipIdentification(evidence: .getVersion(version), candidates: chip.map { [$0] } ?? [])
        }
        if let chipName {
            let chip =
                FlipperChipNames.chip(named: chipName)
                ?? Type2ChipCatalogue.all.first { $0.name == chipName || $0.typeCode == chipName }
            return Type2ChipIdentification(evidence: .chipName(chipName), candidates: chip.map { [$0] } ?? [])
        }
        return Type2ChipIdentification(
            evidence: .pageCount(pageCount), candidates: Type2ChipCatalogue.chips(forPageCount: pageCount))
    }
}
