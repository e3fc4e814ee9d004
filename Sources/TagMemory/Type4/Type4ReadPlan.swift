/// The READ BINARY commands that read a Type 4 NDEF file: NLEN (or ENLEN), then the message.
///
/// NFC Forum Type 4 Tag 3.0, section 5.5.6 (NDEF Read Procedure): after selecting the NDEF
/// file the reader reads the length field, then the message in READ BINARY commands of at most
/// MLe bytes each, never past NLEN (some tags, for example ST's, refuse a read beyond the
/// message). Ranges below `8000` use `B0`; past it, version 3.0 tags are read with `B1`, whose
/// response spends 2 to 4 bytes of MLe on the 53 wrapper (see `Type4Addressing`).
///
/// The plan is a random-access collection computed on demand, so a hostile ENLEN of gigabytes
/// costs no memory: `count` is the number of READ BINARY commands (the length read included),
/// and element 0 is the length read. A session that has read the length field builds the plan
/// from it and sends `plan.dropFirst()`.
public struct Type4ReadPlan: RandomAccessCollection, Sendable, Hashable {
    /// One READ BINARY: `length` file bytes at `offset`.
    public struct Read: Sendable, Hashable, CustomStringConvertible {
        /// The offset in the file.
        public var offset: Int
        /// The number of file bytes to read.
        public var length: Int

        /// Creates a read.
        public init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }

        /// Whether the read needs READ BINARY with an offset data object (`B1`).
        public var usesOffsetDataObject: Bool { !Type4Addressing.isPlain(offset: offset, length: length) }

        public var description: String {
            "\(usesOffsetDataObject ? "READ BINARY B1" : "READ BINARY") \(length) bytes at \(offset)"
        }
    }

    /// The NDEF file to select before these reads.
    public let fileIdentifier: UInt16
    /// The size of the length field read first: 2 (NLEN) or 4 (ENLEN).
    public let lengthFieldSize: Int
    /// The message length the plan reads.
    public let messageLength: Int
    /// File bytes per `B0` read: MLe, limited by the reader.
    public let plainReadSize: Int
    /// File bytes per `B1` read (0 when no read needs `B1`).
    public let extendedReadSize: Int
    private let plainCount: Int
    private let extendedCount: Int

    /// Plans the reads for a message of `messageLength` bytes.
    ///
    /// - Parameters:
    ///   - messageLength: the NDEF message's length, from the NLEN (or ENLEN) field.
    ///   - cc: the capability container (its MLe, mapping version and NDEF file size).
    ///   - maximumResponseData: the most response data the reader accepts per command
    ///     (defaults to MLe). A budget of exactly 256 is lowered to 255 (a short Le `00` is
    ///     refused by some tags).
    /// - Throws: ``TagMemoryError/Code/malformedTLV`` when `messageLength` is negative or above
    ///   the capacity; ``TagMemoryError/Code/invalidArgument`` when the reader limit is smaller
    ///   than the length field; ``TagMemoryError/Code/unsupportedChip`` when the message reaches
    ///   past offset `7FFF` on a tag below version 3.0, or past what an offset data object can
    ///   address.
    public init(
        capabilityContainer cc: Type4CapabilityContainer,
        messageLength: Int,
        maximumResponseData: Int? = nil
    ) throws(TagMemoryError) {
        let fieldSize = cc.messageLengthFieldSize
        let capacity = cc.ndefFile.maximumFileSize - fieldSize
        guard (0...Swift.max(0, capacity)).contains(messageLength) else {
            throw TagMemoryError(
                .malformedTLV, at: 0, "a message length of \(messageLength) exceeds the capacity \(capacity)")
        }
        let budget = Type4Addressing.budget(tag: cc.maximumResponseDataSize, reader: maximumResponseData)
        guard budget >= fieldSize else {
            throw TagMemoryError(
                .invalidArgument, "a read budget of \(budget) bytes cannot read the \(fieldSize)-byte length")
        }
        let start = fieldSize
        let end = start + messageLength
        let plainEnd = Swift.min(end, Type4Addressing.plainLimit)
        let extendedStart = Swift.max(start, Type4Addressing.plainLimit)
        let extendedSize =
            end > extendedStart
            ? Type4Addressing.largestODOData(
                budget: Swift.min(budget, 65536), overhead: Type4Addressing.readODOOverhead) : 0
        if end > extendedStart {
            guard cc.supportsOffsetDataObjects else {
                throw TagMemoryError(
                    .unsupportedChip, at: Type4Addressing.plainLimit,
                    "a version \(cc.majorVersion) tag cannot be read past offset 7FFF (T4T 3.0, 5.5.6)")
            }
            guard extendedSize > 0, end - 1 <= Type4Addressing.largestODOOffset else {
                throw TagMemoryError(
                    .unsupportedChip, at: end, "READ BINARY B1 cannot reach the end of this \(end)-byte file")
            }
        }
        self.fileIdentifier = cc.ndefFile.fileIdentifier
        self.lengthFieldSize = fieldSize
        self.messageLength = messageLength
        self.plainReadSize = Swift.min(budget, 65536)
        self.extendedReadSize = extendedSize
        self.plainCount = plainEnd > start ? Self.ceilingDivide(plainEnd - start, plainReadSize) : 0
        self.extendedCount = end > extendedStart ? Self.ceilingDivide(end - extendedStart, extendedSize) : 0
    }

    /// The read of the length field (NLEN or ENLEN) at offset 0: the first command of every plan.
    public var lengthRead: Read { Read(offset: 0, length: lengthFieldSize) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { 1 + plainCount + extendedCount }

    public subscript(position: Int) -> Read {
        let end = lengthFieldSize + messageLength
        switch position {
        case ..<1:
            return lengthRead
        case ...plainCount:
            let offset = lengthFieldSize + (position - 1) * plainReadSize
            return Read(
                offset: offset, length: Swift.min(plainReadSize, Swift.min(end, Type4Addressing.plainLimit) - offset))
        default:
            let extendedStart = Swift.max(lengthFieldSize, Type4Addressing.plainLimit)
            let offset = extendedStart + (position - 1 - plainCount) * extendedReadSize
            return Read(offset: offset, length: Swift.min(extendedReadSize, end - offset))
        }
    }

    /// The READ BINARY APDU for the read at `position`.
    public func command(at position: Int) throws(TagMemoryError) -> Type4Command {
        try Type4Command.readBinary(self[position])
    }

    private static func ceilingDivide(_ value: Int, _ divisor: Int) -> Int {
        (value + divisor - 1) / divisor
    }
}

extension Type4CapabilityContainer {
    /// The READ BINARY commands for the NDEF file (T4T 3.0, 5.5.6); see ``Type4ReadPlan``.
    public func readPlan(messageLength: Int, maximumResponseData: Int? = nil) throws(TagMemoryError) -> Type4ReadPlan {
        try Type4ReadPlan(
            capabilityContainer: self, messageLength: messageLength, maximumResponseData: maximumResponseData)
    }
}
