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
    /// The file data `{enc}` holds (whole 16-byte blocks), encrypted by the tag on each read;
    /// with ``tagTamperOffset``, its first two bytes are where the TagTamper status goes.
    public let fileData: [UInt8]?
    /// TTStatusOffset: the start of the file data, when an NTAG 424 DNA TT mirrors its TagTamper
    /// status there (the layout sdm-backend reads: the first two bytes of the file data).
    public let tagTamperOffset: Int?
    /// What the file holds where the TagTamper status goes (the tag mirrors the status over it).
    public static let tagTamperPlaceholder = Array("TT".utf8)

    /// Whether `data`, decrypted from the tag's file data window, is this template's (the
    /// TagTamper status, which the tag writes, aside).
    public func isFileData(_ data: [UInt8]?) -> Bool {
        guard let data, let fileData, data.count == fileData.count else { return data == fileData }
        let skipped = tagTamperOffset == nil ? 0 : 2
        return data.dropFirst(skipped).elementsEqual(fileData.dropFirst(skipped))
    }

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
    /// blocks). With `tagTamper` (an NTAG 424 DNA TT), the TagTamper status takes the first two
    /// bytes of the file data, before `fileData` (which may then be empty).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` unless `{picc}` and `{mac}` each appear once
    ///   (`{enc}` at most once, exactly when `fileData` is given) in the order `{picc}`, `{enc}`,
    ///   `{mac}`, and the URL fits the file.
    public init(
        url: String, fileSize: Int = 256, mode: NTAG424CryptoMode = .aes, fileData given: [UInt8]? = nil,
        tagTamper: Bool = false
    ) throws(NTAG424Error) {
        if tagTamper && !url.contains(Self.encPlaceholder) {
            throw NTAG424Error(.invalidInput, "the TagTamper status goes in the file data: the URL needs {enc}")
        }
        let fileData = tagTamper ? Self.tagTamperPlaceholder + (given ?? []) : given
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
                .invalidInput,
                "the file data is 1 to \(Self.largestFileData - (tagTamper ? 2 : 0)) bytes, not "
                    + "\(fileData.count - (tagTamper ? 2 : 0))")
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
        tagTamperOffset = tagTamper ? encryptedDataOffset : nil
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
                mirrorsTagTamper: tagTamperOffset != nil, tagTamperOffset: tagTamperOffset,
                counterRetrieval: counterKey, metaRead: .key(metaReadKey), fileRead: .key(fileReadKey),
                piccDataOffset: piccDataOffset, macInputOffset: macInputOffset,
                encryptedDataOffset: encryptedDataOffset, encryptedDataLength: encryptedDataLength,
                macOffset: macOffset))
    }
}
