import NFCSession

/// How Type 2 frames reach the tag through a PC/SC reader.
///
/// - ``generic``: READ and WRITE as PC/SC part 3 READ BINARY and UPDATE BINARY; every other
///   command refused. Any reader.
/// - ``acr122u``: every command through PN532 InCommunicateThru in a Direct Transmit. ACS ACR122U,
///   and vpcd's Virtual PCD (served by this project's card bridge).
/// - ``pcscTransparent``: every command through a PC/SC 2.02 transparent exchange. ACS ACR1252U,
///   ACR1255U, ACR1552U; Identiv uTrust 3700 F, CLOUD 3700 F and 4700 F; HID OMNIKEY 5022, 5422.
///
/// The profile is chosen from the reader name (``detect(readerName:)``) unless the reader URL
/// forces one (`?profile=`). Type 4 APDUs pass through unchanged with every profile.
public enum PCSCReaderProfile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// PC/SC part 3 storage commands only: READ and WRITE, no raw commands, so no GET_VERSION
    /// (chips are identified by their capability container and page count), no passwords, no
    /// FAST_READ.
    case generic
    /// The ACS ACR122U's Direct Transmit of PN532 InCommunicateThru (ACR122U API section 6):
    /// every Type 2 command, frames up to 248 bytes. The vpcd card bridge of this project answers
    /// the same pseudo-APDUs, so vpcd's readers use this profile.
    case acr122u
    /// PC/SC 2.02 part 3 transparent sessions (`FF C2`): every Type 2 command, frames up to 240
    /// bytes.
    case pcscTransparent = "pcsc-transparent"

    public var description: String { rawValue }

    /// The profile for a reader name as pcscd reports it (`ACS ACR122U PICC Interface 00 00`),
    /// matched case-insensitively:
    /// - `ACR122` and `Virtual PCD` (vpcd): ``acr122u``;
    /// - `ACR1252`, `ACR1255`, `ACR1552`, `uTrust 3700 F`, `CLOUD 3700 F`, `CLOUD 4700 F`,
    ///   `OMNIKEY 5022`, `OMNIKEY 5422`: ``pcscTransparent`` (the ACS and Identiv reference
    ///   manuals document the PC/SC 2.02 transparent session; for the two OMNIKEY readers it is
    ///   taken from HID's description of them as PC/SC 2.02 readers, unconfirmed on hardware; a
    ///   reader that refuses the session still reads and writes through part 3 storage commands);
    /// - anything else: ``generic``, which every PC/SC contactless reader supports.
    public static func detect(readerName: String) -> PCSCReaderProfile {
        let name = readerName.lowercased()
        if ["acr122", "virtual pcd"].contains(where: name.contains) { return .acr122u }
        let transparent = [
            "acr1252", "acr1255", "acr1552", "utrust 3700 f", "cloud 3700 f", "cloud 4700 f", "omnikey 5022",
            "omnikey 5422",
        ]
        if transparent.contains(where: name.contains) { return .pcscTransparent }
        return .generic
    }

    /// The profile named `text` (`generic`, `acr122u`, `pcsc-transparent`, case-insensitive).
    public init?(name text: String) {
        guard let profile = Self.allCases.first(where: { $0.rawValue == text.lowercased() }) else { return nil }
        self = profile
    }

    /// What a reader with this profile can do. ``NFCSession/NFCReaderCapabilities/detectsMultipleTargets``
    /// is always false: a PC/SC reader shows one card per slot and activates one tag when several
    /// are in the field, so two tags are not told apart.
    ///
    /// ``NFCSession/NFCReaderCapabilities/maximumFrameSize`` is the largest answer a transceive or
    /// an APDU exchange passes: 258 bytes for ``generic`` (a short response APDU, 256 data bytes and
    /// SW1 SW2; Type 2 frames are only READs of 16 bytes), 248 for ``acr122u`` (62 pages: a PN532
    /// normal frame holds 255 bytes, `D5 43`, the status and the answer with its 2 CRC bytes), 240
    /// for ``pcscTransparent`` (60 pages: the data objects around the answer must fit a short
    /// response APDU).
    public var capabilities: NFCReaderCapabilities {
        switch self {
        case .generic:
            NFCReaderCapabilities(
                maximumFrameSize: 258, supportsRawCommands: false, supportsFastRead: false, supportsISODEP: true,
                detectsMultipleTargets: false)
        case .acr122u:
            NFCReaderCapabilities(
                maximumFrameSize: 248, supportsRawCommands: true, supportsFastRead: true, supportsISODEP: true,
                detectsMultipleTargets: false)
        case .pcscTransparent:
            NFCReaderCapabilities(
                maximumFrameSize: 240, supportsRawCommands: true, supportsFastRead: true, supportsISODEP: true,
                detectsMultipleTargets: false)
        }
    }
}

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
