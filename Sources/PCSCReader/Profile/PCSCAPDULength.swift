/// Which APDU lengths a PC/SC reader passes to an ISO-DEP tag (ISO/IEC 7816-4:2020 5.1): short
/// APDUs (at most 255 command and 256 response data bytes) or extended-length ones as well (up to
/// 65,535 and 65,536).
///
/// ``automatic`` asks the reader driver on the first connection: PC/SC 2.02 Part 10 (section
/// 2.2, `FEATURE_GET_TLV_PROPERTIES`, property `dwMaxAPDUDataSize`, tag 0Ah: 0 for short APDUs
/// only, else the largest data field). A driver that does not answer (many do not, vpcd among
/// them) is taken as short-only, which every reader passes. ``extended`` forces extended
/// lengths for a reader known to pass them, ``short`` forbids them.
public enum PCSCAPDULength: String, Sendable, Hashable, CaseIterable {
    /// Ask the driver (Part 10 TLV properties); short when it does not say.
    case automatic = "auto"
    /// Short APDUs only.
    case short
    /// Extended-length APDUs pass (up to 65,536 data bytes).
    case extended

    /// The length named `text` (`auto`, `short`, `extended`, case-insensitive).
    public init?(name text: String) {
        guard let length = Self.allCases.first(where: { $0.rawValue == text.lowercased() }) else { return nil }
        self = length
    }

    /// The largest APDU data field for a driver's `dwMaxAPDUDataSize` (nil: not reported):
    /// 256 for short APDUs, up to 65,536 for extended ones.
    func maximumDataSize(reported: Int?) -> Int {
        switch self {
        case .short: 256
        case .extended: 1 << 16
        case .automatic:
            if let reported, reported > 256 { min(reported, 1 << 16) } else { 256 }
        }
    }
}
