import NDEF

/// A URL with `{picc}` and `{mac}` where an NTAG 424 DNA puts its encrypted PICCData (32
/// characters) and its SDMMAC (16), made into the NDEF file to write and the SDM settings that
/// point at the placeholders (NT4H2421Gx 9.3, 10.7.1; AN12196 4).
///
/// The NDEF file is NLEN (2 bytes) then the message; the placeholders are written as `0`s, so
/// the file reads as a whole URL before SDM is on. Offsets count from the start of the file.
/// The message is encoded twice with two fillers and the bytes that differ are where the
/// placeholders lie, so any URI prefix abbreviation is accounted for.
public struct NTAG424SDMTemplate: Sendable, Hashable {
    /// The placeholder for PICCData.
    public static let piccPlaceholder = "{picc}"
    /// The placeholder for the SDMMAC.
    public static let macPlaceholder = "{mac}"

    /// The message to write, with `0`s for the placeholders.
    public let message: NFCNDEFMessage
    /// The NDEF file's bytes: NLEN, then the message.
    public let file: [UInt8]
    /// PICCDataOffset in the file.
    public let piccDataOffset: Int
    /// SDMMACOffset in the file (SDMMACInputOffset is the same: the MAC input is empty).
    public let macOffset: Int

    /// The template of `url`, for a file of `fileSize` bytes (256 on NTAG 424 DNA).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless `{picc}` and `{mac}` each appear once,
    ///   `{picc}` first, and the URL fits the file.
    public init(url: String, fileSize: Int = 256) throws(NTAG424Error) {
        for placeholder in [Self.piccPlaceholder, Self.macPlaceholder] where url.ranges(of: placeholder).count != 1 {
            throw NTAG424Error(.invalidInput, "the URL must hold \(placeholder) exactly once")
        }
        guard let picc = url.firstRange(of: Self.piccPlaceholder), let mac = url.firstRange(of: Self.macPlaceholder),
            picc.upperBound <= mac.lowerBound
        else {
            throw NTAG424Error(.invalidInput, "{picc} must come before {mac} in the URL")
        }
        func build(_ filler: Character) throws(NTAG424Error) -> [UInt8] {
            let text = url.replacing(Self.piccPlaceholder, with: String(repeating: filler, count: 32))
                .replacing(Self.macPlaceholder, with: String(repeating: filler, count: 16))
            do {
                return try NFCNDEFMessage(records: [try URIRecord(uri: text).makeRecord()]).encoded()
            } catch {
                throw NTAG424Error(.invalidInput, "the URL makes no URI record: \(error)")
            }
        }
        let zeros = try build("0")
        let ones = try build("1")
        let differing = zip(zeros, ones).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        guard zeros.count == ones.count, differing.count == 48, let first = differing.first, let last = differing.last
        else {
            throw NTAG424Error(.invalidInput, "the placeholders are not stored as plain text in the URI record")
        }
        let macStart = last - 15
        guard differing == Array(first..<(first + 32)) + Array(macStart...last) else {
            throw NTAG424Error(.invalidInput, "the placeholders are not stored as plain text in the URI record")
        }
        file = [UInt8(truncatingIfNeeded: zeros.count >> 8), UInt8(truncatingIfNeeded: zeros.count)] + zeros
        guard file.count <= fileSize else {
            throw NTAG424Error(
                .invalidInput, "the URL makes a \(file.count)-byte NDEF file, larger than the tag's \(fileSize) bytes")
        }
        do {
            message = try NFCNDEFMessage(decoding: zeros)
        } catch {
            throw NTAG424Error(.invalidInput, "the URL makes no message: \(error)")
        }
        piccDataOffset = 2 + first
        macOffset = 2 + macStart
    }

    /// The NDEF file's settings with SDM: plain CommMode, Read free; Write, ReadWrite and Change
    /// key 0 (`lockNDEF`: Write and ReadWrite key 0; otherwise Write free, as at the factory);
    /// UID and counter mirrored in PICCData under `metaReadKey`, the SDMMAC under `fileReadKey`
    /// over an empty input; SDMCtrRet `counterKey`.
    public func settings(
        metaReadKey: Int, fileReadKey: Int, lockNDEF: Bool, counterKey: NTAG424Access = .never, fileSize: Int = 256
    ) -> NTAG424FileSettings {
        NTAG424FileSettings(
            communicationMode: .plain, read: .free, write: lockNDEF ? .key(0) : .free,
            readWrite: lockNDEF ? .key(0) : .free, change: .key(0), size: fileSize,
            sdm: NTAG424FileSettings.SDM(
                mirrorsUID: true, mirrorsReadCounter: true, counterRetrieval: counterKey, metaRead: .key(metaReadKey),
                fileRead: .key(fileReadKey), piccDataOffset: piccDataOffset, macInputOffset: macOffset,
                macOffset: macOffset))
    }
}
