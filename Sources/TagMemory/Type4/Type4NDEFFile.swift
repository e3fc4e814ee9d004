import NDEF

/// The NDEF file of a Type 4 tag: NLEN (or ENLEN) and the NDEF message.
///
/// NFC Forum Type 4 Tag 3.0, section 5.2 (NDEF storage): the file starts with NLEN, the
/// message length as 2 big-endian bytes, or with ENLEN (4 bytes) when the CC describes it with
/// an Extended NDEF File Control TLV; the message follows. NLEN 0 means the file holds no
/// message (an empty tag). The length must not exceed the maximum NDEF file size less the
/// length field (5.5.1, NDEF detection: a reader refuses such a file).
public struct Type4NDEFFile: Sendable, Hashable {
    /// The size of the length field: 2 (NLEN) or 4 (ENLEN).
    public var lengthFieldSize: Int
    /// The message bytes, exactly NLEN of them (empty when NLEN is 0).
    public var messageBytes: ArraySlice<UInt8>
    /// The decoded message; nil when NLEN is 0.
    public var message: NFCNDEFMessage?
    /// Status and capacity from the capability container (see
    /// ``Type4CapabilityContainer/ndefStatus``).
    public var status: NDEFTagStatus

    /// Parses an image of the NDEF file described by `capabilityContainer`.
    ///
    /// The image may be just the bytes read (NLEN and the message) or the whole file; bytes
    /// after the message are ignored. The message is decoded strictly (NDEF 1.0).
    ///
    /// - Throws: ``TagMemoryError/Code/truncatedImage`` when the image ends inside the length
    ///   field or before the message does; ``TagMemoryError/Code/malformedTLV`` when NLEN (or
    ///   ENLEN) is larger than the maximum NDEF file size allows (T4T 3.0, 5.5.1; NLEN plays the
    ///   part of a TLV length here); ``TagMemoryError/Code/malformedMessage`` (with the offset in
    ///   the file) when the message is not valid NDEF.
    public init(
        parsing image: ArraySlice<UInt8>,
        capabilityContainer: Type4CapabilityContainer,
        options: NDEFDecodingOptions = .init()
    ) throws(TagMemoryError) {
        let bytes = try Self.messageBytes(in: image, capabilityContainer: capabilityContainer)
        self.lengthFieldSize = capabilityContainer.messageLengthFieldSize
        self.messageBytes = bytes
        self.status = capabilityContainer.ndefStatus
        if bytes.isEmpty {
            self.message = nil
        } else {
            do {
                self.message = try NFCNDEFMessage(decoding: bytes, options: options)
            } catch {
                throw TagMemoryError(
                    .malformedMessage, at: error.offset.map { $0 + lengthFieldSize },
                    "the NDEF message is not valid: \(error.reason)")
            }
        }
    }

    /// Parses an image of the NDEF file; see the `ArraySlice` overload.
    public init(
        parsing image: [UInt8],
        capabilityContainer: Type4CapabilityContainer,
        options: NDEFDecodingOptions = .init()
    ) throws(TagMemoryError) {
        try self.init(parsing: image[...], capabilityContainer: capabilityContainer, options: options)
    }

    /// Reads the length field and returns the message bytes without decoding them, for a
    /// lenient reader (`NFCNDEFMessage.recovering(from:)`) or a dump.
    ///
    /// - Throws: as `init(parsing:capabilityContainer:options:)` does, except for decoding.
    public static func messageBytes(
        in image: ArraySlice<UInt8>,
        capabilityContainer: Type4CapabilityContainer
    ) throws(TagMemoryError) -> ArraySlice<UInt8> {
        let fieldSize = capabilityContainer.messageLengthFieldSize
        let length = try messageLength(in: image, capabilityContainer: capabilityContainer)
        let start = image.startIndex + fieldSize
        guard length <= image.count - fieldSize else {
            throw TagMemoryError(
                .truncatedImage, at: image.count,
                "the message is \(length) bytes but the image holds \(image.count - fieldSize) after the length field")
        }
        return image[start..<(start + length)]
    }

    /// Reads NLEN (or ENLEN) from the start of an image and checks it against the maximum size.
    ///
    /// - Throws: ``TagMemoryError/Code/truncatedImage`` when the image is shorter than the field;
    ///   ``TagMemoryError/Code/malformedTLV`` when the length exceeds the capacity.
    public static func messageLength(
        in image: ArraySlice<UInt8>,
        capabilityContainer: Type4CapabilityContainer
    ) throws(TagMemoryError) -> Int {
        let fieldSize = capabilityContainer.messageLengthFieldSize
        var reader = Type4ByteReader(image)
        let read = fieldSize == 4 ? reader.longWord() : reader.word().map(Int.init)
        guard image.count >= fieldSize, let length = read else {
            throw TagMemoryError(
                .truncatedImage, at: image.count,
                "the NDEF file image has \(image.count) bytes, too few for the \(fieldSize)-byte length field")
        }
        let capacity = capabilityContainer.ndefFile.maximumFileSize - fieldSize
        guard length <= capacity else {
            let name = fieldSize == 4 ? "ENLEN" : "NLEN"
            throw TagMemoryError(
                .malformedTLV, at: 0,
                "\(name) \(length) exceeds the \(capacity) bytes the maximum NDEF file size leaves (T4T 3.0, 5.5.1)")
        }
        return length
    }

    /// The file content for `messageBytes`: the length field then the message (no padding).
    ///
    /// - Throws: ``TagMemoryError/Code/insufficientCapacity`` when the message does not fit the
    ///   file described by `capabilityContainer`.
    public static func encoded(
        messageBytes: some Collection<UInt8>,
        capabilityContainer: Type4CapabilityContainer
    ) throws(TagMemoryError) -> [UInt8] {
        let fieldSize = capabilityContainer.messageLengthFieldSize
        let capacity = max(0, capabilityContainer.ndefFile.maximumFileSize - fieldSize)
        guard messageBytes.count <= capacity else {
            throw TagMemoryError(
                .insufficientCapacity,
                "the message needs \(messageBytes.count) bytes but the NDEF file holds \(capacity)")
        }
        return lengthField(messageBytes.count, size: fieldSize) + messageBytes
    }

    /// NLEN or ENLEN for `length`, big-endian.
    static func lengthField(_ length: Int, size: Int) -> [UInt8] {
        let value = UInt32(truncatingIfNeeded: length)
        let all = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        return Array(all.suffix(size))
    }
}
