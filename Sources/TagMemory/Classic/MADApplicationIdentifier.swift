/// A MIFARE Application Directory entry: the application identifier (AID) of one sector.
///
/// AN10787: an AID is 16 bits, the function cluster code in the high byte and the application
/// code in the low byte; the directory stores it low byte first, so the NFC Forum NDEF AID
/// E103h (function cluster E1h "NFC Forum", application code 03h "NDEF", AN1304) appears as
/// the bytes 03 E1. libfreefare (`struct mad_aid { application_code; function_cluster_code }`),
/// proxmark3 (`ndef_aid = 0xE103` read little-endian) and neard (`NFC_AID_TAG 0xE103`) read
/// it so.
///
/// Function cluster 00h holds the administration codes: 0000h free, 0001h defect (keys
/// destroyed or unknown), 0002h reserved, 0003h additional directory information, 0004h card
/// holder information, 0005h not applicable (above the memory size); 0006h-00FFh are reserved.
public struct MADApplicationIdentifier: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The AID, function cluster code in the high byte.
    public let rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The AID with these two codes.
    public init(functionCluster: UInt8, applicationCode: UInt8) {
        self.rawValue = UInt16(functionCluster) << 8 | UInt16(applicationCode)
    }

    /// The AID stored as `first`, `second` in the directory (application code first).
    public init(storedBytes first: UInt8, _ second: UInt8) {
        self.init(functionCluster: second, applicationCode: first)
    }

    /// The function cluster code, the high byte.
    public var functionCluster: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }
    /// The application code, the low byte.
    public var applicationCode: UInt8 { UInt8(truncatingIfNeeded: rawValue) }
    /// The two bytes as the directory stores them: application code, then function cluster.
    public var storedBytes: [UInt8] { [applicationCode, functionCluster] }

    /// 0000h: the sector is free.
    public static let free = MADApplicationIdentifier(rawValue: 0x0000)
    /// 0001h: the sector is defect (its keys are destroyed or unknown).
    public static let defect = MADApplicationIdentifier(rawValue: 0x0001)
    /// 0002h: the sector is reserved.
    public static let reserved = MADApplicationIdentifier(rawValue: 0x0002)
    /// 0003h: the sector holds additional directory information.
    public static let additionalDirectoryInformation = MADApplicationIdentifier(rawValue: 0x0003)
    /// 0004h: the sector holds card holder information.
    public static let cardHolderInformation = MADApplicationIdentifier(rawValue: 0x0004)
    /// 0005h: the sector is not applicable (above the card's memory size).
    public static let notApplicable = MADApplicationIdentifier(rawValue: 0x0005)
    /// E103h: the sector is an NFC sector holding NDEF data (AN1304).
    public static let ndef = MADApplicationIdentifier(rawValue: 0xE103)

    /// Whether this is an administration code (function cluster 00h).
    public var isAdministrationCode: Bool { functionCluster == 0 }

    /// A short name for administration codes and the NDEF AID, nil for other AIDs.
    public var name: String? {
        switch self {
        case .free: "free"
        case .defect: "defect"
        case .reserved: "reserved"
        case .additionalDirectoryInformation: "additional directory information"
        case .cardHolderInformation: "card holder information"
        case .notApplicable: "not applicable"
        case .ndef: "NFC Forum NDEF"
        default: isAdministrationCode ? "reserved administration code" : nil
        }
    }

    public var description: String {
        TagHex.word(rawValue) + "h" + (name.map { " (\($0))" } ?? "")
    }
}
