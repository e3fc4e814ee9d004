import HexText
import NFCWireFormat

/// A command APDU for a Type 4 tag, as bytes.
///
/// NFC Forum Type 4 Tag 3.0, section 5.5 (command sequences) on ISO/IEC 7816-4 APDUs:
/// SELECT by name for the NDEF Tag Application (5.5.2), SELECT by file identifier (5.5.3,
/// 5.5.5), READ BINARY (5.5.4, 5.5.6) and UPDATE BINARY (5.5.7). Offsets up to `7FFF` go in
/// P1-P2 (`B0` / `D6`); a range reaching past `7FFF` uses the mapping version 3.0 forms with
/// an offset data object (`B1` / `D7`). Lc and Le use the short form (one byte) when they fit
/// and the extended form (ISO/IEC 7816-4: a `00` byte then two length bytes) otherwise, which
/// the tag advertises by an MLe above 256 or an MLc above 255.
public struct Type4Command: Sendable, Hashable, CustomStringConvertible {
    /// The APDU bytes: CLA, INS, P1, P2, then Lc and data and/or Le.
    public var bytes: [UInt8]

    /// Wraps APDU bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The NDEF Tag Application identifier of mapping versions 2.0 and 3.0, `D2760000850101`.
    public static let ndefApplicationIdentifier: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// The NDEF Tag Application identifier of mapping version 1.0, `D2760000850100`.
    public static let version1ApplicationIdentifier: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]

    /// The instruction byte (INS), or 0 for an APDU shorter than two bytes.
    public var instruction: UInt8 { bytes.count > 1 ? bytes[1] : 0 }

    /// Whether this is a READ or UPDATE BINARY with an offset data object (`B1` / `D7`), whose
    /// data travels in a discretionary data object (tag 53).
    public var usesOffsetDataObject: Bool { instruction == 0xB1 || instruction == 0xD7 }

    /// SELECT the NDEF Tag Application by name (T4T 3.0, 5.5.2).
    ///
    /// Version 2.0 and later: `00 A4 04 00 07 D2760000850101 00`; version 1.0 (the
    /// specification's coexistence rules for mapping version 1.0): `00 A4 04 00 07
    /// D2760000850100`, without Le. A reader tries the version 2 identifier first and falls
    /// back to version 1.
    public static func selectNDEFApplication(majorVersion: Int = 2) -> Type4Command {
        if majorVersion == 1 {
            return Type4Command(bytes: [0x00, 0xA4, 0x04, 0x00, 0x07] + version1ApplicationIdentifier)
        }
        return Type4Command(bytes: [0x00, 0xA4, 0x04, 0x00, 0x07] + ndefApplicationIdentifier + [0x00])
    }

    /// SELECT a file by identifier (T4T 3.0, 5.5.3 for the CC file `E103`, 5.5.5 for the NDEF
    /// file): `00 A4 00 0C 02 id id` (P2 `0C`: no response data); version 1.0 tags get P2 `00`.
    public static func selectFile(_ identifier: UInt16, majorVersion: Int = 2) -> Type4Command {
        let p2: UInt8 = majorVersion == 1 ? 0x00 : 0x0C
        return Type4Command(bytes: [
            0x00, 0xA4, 0x00, p2, 0x02, UInt8(truncatingIfNeeded: identifier >> 8),
            UInt8(truncatingIfNeeded: identifier),
        ])
    }

    /// READ BINARY of `length` bytes at `offset` of the selected file.
    ///
    /// `00 B0 P1 P2 Le` when the whole range lies below `8000`; otherwise `00 B1 00 00 05
    /// 54 03 o o o Le` (version 3.0), whose Le counts the 53 tag and BER length wrapping the
    /// data in the response (see ``Type4Response/binaryData(for:)``).
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` for a negative offset, a length outside
    ///   1...65536 (less the wrapping for `B1`), or an offset above `FFFFFF`.
    public static func readBinary(offset: Int, length: Int) throws(TagMemoryError) -> Type4Command {
        guard offset >= 0, (1...65536).contains(length) else {
            throw TagMemoryError(.invalidArgument, at: offset, "cannot READ BINARY \(length) bytes at offset \(offset)")
        }
        if Type4Addressing.isPlain(offset: offset, length: length) {
            let header: [UInt8] = [
                0x00, 0xB0, UInt8(truncatingIfNeeded: offset >> 8), UInt8(truncatingIfNeeded: offset),
            ]
            let extended = length > 256
            return Type4Command(bytes: header + (extended ? [0x00] : []) + expectedLength(length, extended: extended))
        }
        let odo = try offsetDataObject(offset)
        let wrapped = length + Type4Addressing.readODOOverhead + (Type4Addressing.berLengthSize(length) ?? 4)
        guard wrapped <= 65536 else {
            throw TagMemoryError(
                .invalidArgument, at: offset, "a READ BINARY of \(length) bytes does not fit one response")
        }
        let extended = wrapped > 256
        let header: [UInt8] = [0x00, 0xB1, 0x00, 0x00]
        return Type4Command(
            bytes: header + commandLength(odo.count, extended: extended) + odo
                + expectedLength(wrapped, extended: extended))
    }

    /// UPDATE BINARY of `data` at `offset` of the selected file; no Le (some tags, for example
    /// NTAG 424 DNA, answer `6700` to an UPDATE BINARY that has one).
    ///
    /// `00 D6 P1 P2 Lc data` when the range lies below `8000`; otherwise `00 D7 00 00 Lc 54 03
    /// o o o 53 L data` (version 3.0, L a BER-TLV length).
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` for a negative offset, no data, an
    ///   offset above `FFFFFF`, or command data longer than 65 535 bytes.
    public static func updateBinary(offset: Int, data: some Collection<UInt8>) throws(TagMemoryError) -> Type4Command {
        guard offset >= 0, !data.isEmpty else {
            throw TagMemoryError(
                .invalidArgument, at: offset, "cannot UPDATE BINARY \(data.count) bytes at offset \(offset)")
        }
        var header: [UInt8] = [0x00, 0xD6, UInt8(truncatingIfNeeded: offset >> 8), UInt8(truncatingIfNeeded: offset)]
        var body: [UInt8]
        if Type4Addressing.isPlain(offset: offset, length: data.count) {
            body = Array(data)
        } else {
            header = [0x00, 0xD7, 0x00, 0x00]
            guard let lengthSize = Type4Addressing.berLengthSize(data.count), lengthSize <= 3 else {
                throw TagMemoryError(.invalidArgument, at: offset, "\(data.count) bytes do not fit one UPDATE BINARY")
            }
            body = try offsetDataObject(offset) + [0x53] + Type4Addressing.berLength(data.count) + data
        }
        guard body.count <= 65535 else {
            throw TagMemoryError(.invalidArgument, at: offset, "\(body.count) bytes of command data do not fit an APDU")
        }
        return Type4Command(bytes: header + commandLength(body.count, extended: body.count > 255) + body)
    }

    /// The UPDATE BINARY for one step of a Type 4 write or lock plan (the step's file must be
    /// selected first).
    public static func updateBinary(_ step: PlanStep) throws(TagMemoryError) -> Type4Command {
        try updateBinary(offset: step.address, data: step.data)
    }

    /// The READ BINARY for one read of a ``Type4ReadPlan``.
    public static func readBinary(_ read: Type4ReadPlan.Read) throws(TagMemoryError) -> Type4Command {
        try readBinary(offset: read.offset, length: read.length)
    }

    public var description: String {
        bytes.map(Hex.byte).joined(separator: " ")
    }

    /// 54 03 and the three offset bytes.
    private static func offsetDataObject(_ offset: Int) throws(TagMemoryError) -> [UInt8] {
        guard (0...Type4Addressing.largestODOOffset).contains(offset) else {
            throw TagMemoryError(
                .invalidArgument, at: offset, "offset \(offset) is beyond what an offset data object holds")
        }
        let value = UInt32(truncatingIfNeeded: offset)
        return [
            0x54, 0x03, UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }

    /// Lc: one byte, or `00` and two bytes in the extended form.
    private static func commandLength(_ count: Int, extended: Bool) -> [UInt8] {
        let value = UInt16(truncatingIfNeeded: count)
        if extended { return [0x00, UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
        return [UInt8(truncatingIfNeeded: value)]
    }

    /// Le after the header (case 2) or after the data (case 4): one byte (`00` = 256), or in the
    /// extended form two bytes (`0000` = 65536), preceded by `00` when there is no Lc.
    private static func expectedLength(_ count: Int, extended: Bool) -> [UInt8] {
        let value = UInt16(truncatingIfNeeded: count)  // 256 -> 0x0100 -> short 00; 65536 -> 0000
        guard extended else { return [UInt8(truncatingIfNeeded: value)] }
        return [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}

/// A response APDU from a Type 4 tag: data then the status word.
///
/// ISO/IEC 7816-4 response APDU (NFC Forum Type 4 Tag 3.0, section 5.5): zero or more data
/// bytes, then SW1 SW2. A READ BINARY with an offset data object (`B1`, mapping version 3.0)
/// answers with its data inside a discretionary data object, tag 53 with a BER-TLV length.
public struct Type4Response: Sendable, Hashable, CustomStringConvertible {
    /// The response data, without the status word.
    public var data: [UInt8]
    /// The status word.
    public var status: StatusWord

    /// Creates a response, for example in a simulated tag.
    public init(data: [UInt8] = [], status: StatusWord) {
        self.data = data
        self.status = status
    }

    /// Splits response bytes into data and status word.
    ///
    /// - Throws: ``TagMemoryError/Code/truncatedImage`` when fewer than two bytes arrived.
    public init(parsing bytes: some Collection<UInt8>) throws(TagMemoryError) {
        let all = Array(bytes)
        guard all.count >= 2 else {
            throw TagMemoryError(.truncatedImage, at: all.count, "a response APDU needs at least SW1 SW2")
        }
        self.data = Array(all.dropLast(2))
        self.status = StatusWord(sw1: all[all.count - 2], sw2: all[all.count - 1])
    }

    /// Data then status word, as a tag sends them.
    public var bytes: [UInt8] { data + status.bytes }

    /// Whether the status word is `9000`.
    public var isSuccess: Bool { status.isSuccess }

    /// The file bytes a READ BINARY returned: the data as is for `B0`, the content of the
    /// discretionary data object (53, BER-TLV length) for `B1`.
    ///
    /// - Throws: ``TagMemoryError/Code/malformedTLV`` when a `B1` response is not one
    ///   complete 53 data object.
    public func binaryData(for command: Type4Command) throws(TagMemoryError) -> [UInt8] {
        guard command.instruction == 0xB1 else { return data }
        var reader = Type4ByteReader(data[...])
        guard reader.byte() == 0x53, let first = reader.byte() else {
            throw TagMemoryError(.malformedTLV, at: 0, "a READ BINARY B1 response does not start with tag 53")
        }
        var length = Int(first)
        if first >= 0x80 {
            let count = Int(first & 0x7F)
            guard (1...3).contains(count), let bytes = reader.take(count) else {
                throw TagMemoryError(.malformedTLV, at: 1, "the 53 data object has a bad BER-TLV length")
            }
            length = bytes.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let content = reader.take(length), reader.remaining == 0 else {
            throw TagMemoryError(
                .malformedTLV, at: 1, "the 53 data object says \(length) bytes but \(reader.remaining) follow")
        }
        return Array(content)
    }

    public var description: String {
        (data.map(Hex.byte) + [status.description]).joined(separator: " ")
    }
}
