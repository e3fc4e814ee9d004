import NDEF

/// A URL with `{picc}` and `{mac}` (and optionally `{enc}`) where an NTAG 424 DNA puts its
/// encrypted PICCData, its encrypted file data and its SDMMAC, made into the NDEF file to write
/// and the SDM settings that point at the placeholders (NT4H2421Gx 9.3, 10.7.1; AN12196 4).
///
/// - `{picc}` becomes 32 characters in AES mode, 48 in LRP (PICCRand before the ciphertext).
/// - `{enc}` becomes SDMENCFileData: the tag encrypts the first half of the window (the data,
///   whole 16-byte blocks) and mirrors the ciphertext over the whole window as hex
///   (NT4H2421Gx 9.3.6), so the window is twice the data long. It lies between `{picc}` and
///   `{mac}`, and the SDMMAC's input runs from it to the MAC, covering it (AN12196 4.4); without
///   it the MAC input is empty.
/// - `{mac}` becomes 16 characters.
///
/// The NDEF file is NLEN (2 bytes) then the message; the placeholders are written as `0`s (the
/// data in `{enc}`'s first half), so the file reads as a whole URL before SDM is on. Offsets
/// count from the start of the file. The message is encoded twice with two fillers and the bytes
/// that differ are where the placeholders lie, so any URI prefix abbreviation is accounted for.
public struct NTAG424SDMTemplate: Sendable, Hashable {
    /// The placeholder for PICCData.
    public static let piccPlaceholder = "{picc}"
    /// The placeholder for the encrypted file data.
    public static let encPlaceholder = "{enc}"
    /// The placeholder for the SDMMAC.
    public static let macPlaceholder = "{mac}"
    /// The most file data `{enc}` takes: 64 bytes (a 128-character window).
    public static let largestFileData = 64

    /// The message to write, with `0`s for the placeholders.
    public let message: NFCNDEFMessage
    /// The NDEF file's bytes: NLEN, then the message.
    public let file: [UInt8]
    /// The cipher the tag speaks, which sets PICCData's length.
    public let mode: NTAG424CryptoMode
    /// PICCDataOffset in the file.
    public let piccDataOffset: Int
    /// SDMMACOffset in the file.
    public let macOffset: Int
    /// SDMMACInputOffset: SDMENCOffset with encrypted file data, else ``macOffset`` (an empty
    /// input).
    public let macInputOffset: Int
    /// SDMENCOffset, with `{enc}`.
    public let encryptedDataOffset: Int?
    /// The file data `{enc}` holds (whole 16-byte blocks), encrypted by the tag on each read.
    public let fileData: [UInt8]?

    /// SDMENCLength: the window's length in characters, twice the data's.
    public var encryptedDataLength: Int? { fileData.map { $0.count * 2 } }

    /// The ranges of the file a plain read shows changed once SDM is on: PICCData, the
    /// encrypted file data window, the SDMMAC.
    public var mirroredRanges: [Range<Int>] {
        var ranges = [piccDataOffset..<(piccDataOffset + mode.piccDataLength * 2)]
        if let encryptedDataOffset, let encryptedDataLength {
            ranges.append(encryptedDataOffset..<(encryptedDataOffset + encryptedDataLength))
        }
        return ranges + [macOffset..<(macOffset + 16)]
    }

    /// The template of `url`, for a file of `fileSize` bytes (256 on NTAG 424 DNA), a tag in
    /// `mode`, and `fileData` for `{enc}` (1 to 64 bytes, padded with spaces to whole 16-byte
    /// blocks).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless `{picc}` and `{mac}` each appear once
    ///   (`{enc}` at most once, exactly when `fileData` is given) in the order `{picc}`, `{enc}`,
    ///   `{mac}`, and the URL fits the file.
    public init(
        url: String, fileSize: Int = 256, mode: NTAG424CryptoMode = .aes, fileData: [UInt8]? = nil
    ) throws(NTAG424Error) {
        for placeholder in [Self.piccPlaceholder, Self.macPlaceholder] where url.ranges(of: placeholder).count != 1 {
            throw NTAG424Error(.invalidInput, "the URL must hold \(placeholder) exactly once")
        }
        let encCount = url.ranges(of: Self.encPlaceholder).count
        guard encCount <= 1 else { throw NTAG424Error(.invalidInput, "the URL must hold {enc} at most once") }
        if encCount == 1, fileData == nil {
            throw NTAG424Error(.invalidInput, "{enc} needs the file data it holds (--enc-data)")
        }
        if encCount == 0, fileData != nil {
            throw NTAG424Error(.invalidInput, "file data needs {enc} in the URL, where its ciphertext goes")
        }
        let data = fileData.map(Self.padded)
        if let fileData, fileData.isEmpty || fileData.count > Self.largestFileData {
            throw NTAG424Error(
                .invalidInput, "the file data is 1 to \(Self.largestFileData) bytes, not \(fileData.count)")
        }
        let order = [Self.piccPlaceholder, Self.encPlaceholder, Self.macPlaceholder].compactMap {
            url.firstRange(of: $0)
        }
        guard zip(order, order.dropFirst()).allSatisfy({ $0.upperBound <= $1.lowerBound }) else {
            throw NTAG424Error(.invalidInput, "the placeholders must come in the order {picc}, {enc}, {mac}")
        }
        let lengths = [mode.piccDataLength * 2] + (data.map { [$0.count * 2] } ?? []) + [16]
        func build(_ filler: Character) throws(NTAG424Error) -> [UInt8] {
            var text = url.replacing(Self.piccPlaceholder, with: String(repeating: filler, count: lengths[0]))
            if let data {
                text = text.replacing(Self.encPlaceholder, with: String(repeating: filler, count: data.count * 2))
            }
            text = text.replacing(Self.macPlaceholder, with: String(repeating: filler, count: 16))
            do {
                return try NFCNDEFMessage(records: [try URIRecord(uri: text).makeRecord()]).encoded()
            } catch {
                throw NTAG424Error(.invalidInput, "the URL makes no URI record: \(error)")
            }
        }
        var zeros = try build("0")
        let ones = try build("1")
        let differing = zip(zeros, ones).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        let starts = Self.runStarts(differing)
        guard zeros.count == ones.count, starts.map(\.length) == lengths else {
            throw NTAG424Error(.invalidInput, "the placeholders are not stored as plain text in the URI record")
        }
        if let data { zeros.replaceSubrange(starts[1].start..<(starts[1].start + data.count), with: data) }
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
        self.mode = mode
        self.fileData = data
        piccDataOffset = 2 + starts[0].start
        macOffset = 2 + starts[starts.count - 1].start
        encryptedDataOffset = data == nil ? nil : 2 + starts[1].start
        macInputOffset = encryptedDataOffset ?? macOffset
    }

    /// `data` padded with spaces to whole 16-byte blocks.
    static func padded(_ data: [UInt8]) -> [UInt8] {
        data + [UInt8](repeating: 0x20, count: (16 - data.count % 16) % 16)
    }

    /// The runs of consecutive offsets: where each starts and how long it is.
    static func runStarts(_ offsets: [Int]) -> [(start: Int, length: Int)] {
        var runs: [(start: Int, length: Int)] = []
        for offset in offsets {
            if let last = runs.last, last.start + last.length == offset {
                runs[runs.count - 1].length += 1
            } else {
                runs.append((offset, 1))
            }
        }
        return runs
    }

    /// The NDEF file's settings with SDM: plain CommMode, Read free; Write, ReadWrite and Change
    /// key 0 (`lockNDEF`: Write and ReadWrite key 0; otherwise Write free, as at the factory);
    /// UID and counter mirrored in PICCData under `metaReadKey`, the file data (with `{enc}`) and
    /// the SDMMAC under `fileReadKey`; SDMCtrRet `counterKey`.
    public func settings(
        metaReadKey: Int, fileReadKey: Int, lockNDEF: Bool, counterKey: NTAG424Access = .never, fileSize: Int = 256
    ) -> NTAG424FileSettings {
        NTAG424FileSettings(
            communicationMode: .plain, read: .free, write: lockNDEF ? .key(0) : .free,
            readWrite: lockNDEF ? .key(0) : .free, change: .key(0), size: fileSize,
            sdm: NTAG424FileSettings.SDM(
                mirrorsUID: true, mirrorsReadCounter: true, encryptsFileData: fileData != nil,
                counterRetrieval: counterKey, metaRead: .key(metaReadKey), fileRead: .key(fileReadKey),
                piccDataOffset: piccDataOffset, macInputOffset: macInputOffset,
                encryptedDataOffset: encryptedDataOffset, encryptedDataLength: encryptedDataLength,
                macOffset: macOffset))
    }
}
