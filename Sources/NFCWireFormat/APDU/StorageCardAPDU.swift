/// The storage-card commands of a PC/SC contactless reader (PC/SC Workgroup specification
/// part 3, supplemental document for contactless ICCs, 3.2.2.1; class `FF`): GET DATA for the
/// UID and the historical bytes, READ BINARY and UPDATE BINARY on the pages of a Type 2 tag.
public enum StorageCardAPDU {
    /// The instruction of GET DATA (3.2.2.1.3).
    public static let getDataInstruction: UInt8 = 0xCA
    /// The instruction of READ BINARY (3.2.2.1.8).
    public static let readBinaryInstruction: UInt8 = 0xB0
    /// The instruction of UPDATE BINARY (3.2.2.1.9).
    public static let updateBinaryInstruction: UInt8 = 0xD6

    /// GET DATA with P1 00h: the UID (`FF CA 00 00 00`).
    public static let getUID: [UInt8] = [0xFF, getDataInstruction, 0x00, 0x00, 0x00]

    /// GET DATA with P1 01h: the historical bytes of the ATS of an ISO/IEC 14443-4 card
    /// (`FF CA 01 00 00`); many readers refuse it.
    public static let getHistoricalBytes: [UInt8] = [0xFF, getDataInstruction, 0x01, 0x00, 0x00]

    /// READ BINARY of 16 bytes from `page` (`FF B0 00 page 10`): four Type 2 pages, as READ 30h.
    public static func readBinary(page: UInt8) -> [UInt8] {
        [0xFF, readBinaryInstruction, 0x00, page, 0x10]
    }

    /// UPDATE BINARY of one 4-byte page (`FF D6 00 page 04 d0 d1 d2 d3`), as WRITE A2h.
    public static func updateBinary(page: UInt8, data: [UInt8]) -> [UInt8] {
        [0xFF, updateBinaryInstruction, 0x00, page, 0x04] + data
    }
}
