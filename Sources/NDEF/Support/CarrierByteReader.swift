/// A bounds-checked reader over a record payload, for the carrier configuration and handover
/// views.
///
/// Every read checks the bytes that remain first and throws ``NDEFError/Code/invalidPayload``
/// with the payload offset (counted from the start of the payload, plus `base`) instead of
/// trapping.
struct CarrierByteReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int
    /// Added to every offset reported, for buffers nested inside a payload.
    private let base: Int
    /// What is being read, for error messages (for example `"Bluetooth OOB data"`).
    private let context: String

    init(_ bytes: ArraySlice<UInt8>, context: String, base: Int = 0) {
        self.bytes = bytes
        self.index = bytes.startIndex
        self.base = base
        self.context = context
    }

    /// The offset of the next byte, counted from the start of the payload.
    var offset: Int { base + (index - bytes.startIndex) }

    /// How many bytes are left.
    var remainingCount: Int { bytes.endIndex - index }

    /// Whether every byte has been read.
    var isAtEnd: Bool { index >= bytes.endIndex }

    /// An `invalidPayload` error at the current offset (or `offset` when given).
    func error(_ reason: String, at offset: Int? = nil) -> NDEFError {
        NDEFError(.invalidPayload, at: offset ?? self.offset, "\(context): \(reason)")
    }

    mutating func readByte(_ what: String) throws(NDEFError) -> UInt8 {
        guard index < bytes.endIndex else { throw error("the payload ends before the \(what)") }
        let byte = bytes[index]
        index += 1
        return byte
    }

    mutating func readUInt16BigEndian(_ what: String) throws(NDEFError) -> UInt16 {
        let pair = try readBytes(2, what)
        return UInt16(pair[pair.startIndex]) << 8 | UInt16(pair[pair.startIndex + 1])
    }

    mutating func readUInt16LittleEndian(_ what: String) throws(NDEFError) -> UInt16 {
        let pair = try readBytes(2, what)
        return UInt16(pair[pair.startIndex]) | UInt16(pair[pair.startIndex + 1]) << 8
    }

    /// Reads exactly `count` bytes.
    mutating func readBytes(_ count: Int, _ what: String) throws(NDEFError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remainingCount else {
            throw error("the \(what) needs \(count) bytes but only \(remainingCount) remain")
        }
        let slice = bytes[index..<index + count]
        index += count
        return slice
    }

    /// Reads everything that is left.
    mutating func readRest() -> ArraySlice<UInt8> {
        let slice = bytes[index...]
        index = bytes.endIndex
        return slice
    }
}

/// Small codecs shared by the carrier configuration and handover views.
enum CarrierCoding {
    static func appendBigEndian(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    static func appendLittleEndian(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// `bytes` as a String when they are valid UTF-8, else `nil`.
    static func utf8String(_ bytes: some Collection<UInt8>) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// A version byte (major in the high nibble, minor in the low) as `"1.3"`.
    static func versionString(_ byte: UInt8) -> String {
        "\(byte >> 4).\(byte & 0x0F)"
    }

    /// Parses `"1.3"` into a version byte; `nil` unless both parts are 0-15.
    static func versionByte(_ text: String) -> UInt8? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = UInt8(parts[0]), let minor = UInt8(parts[1]), major < 16, minor < 16 else {
            return nil
        }
        return major << 4 | minor
    }
}
