/// A response APDU from a Type 4 tag: data then the status word.
///
/// ISO/IEC 7816-4 response APDU (NFC Forum Type 4 Tag 3.0, section 5.5): zero or more data
/// bytes, then SW1 SW2. A READ BINARY with an offset data object (`B1`, mapping version 3.0)
/// answers with its data inside a discretionary data object, tag 53 with a BER-TLV length.
public struct Type4Response: Sendable, Hashable, CustomStringConvertible {
    /// The response data, without the status word.
    public var data: [UInt8]
    /// The status word.
    public var status: Type4StatusWord

    /// Creates a response, for example in a simulated tag.
    public init(data: [UInt8] = [], status: Type4StatusWord) {
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
        self.status = Type4StatusWord(sw1: all[all.count - 2], sw2: all[all.count - 1])
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
        (data.map(TagHex.byte) + [status.description]).joined(separator: " ")
    }
}
