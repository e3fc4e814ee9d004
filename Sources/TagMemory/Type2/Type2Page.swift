/// Page and byte address arithmetic for NFC Forum Type 2 tags.
///
/// A Type 2 tag's memory is addressed in pages of 4 bytes (T2T 1.1, section 2; READ returns
/// 4 pages from a page address, WRITE writes one page, 5.1 and 5.2). Byte addresses count from
/// byte 0 of page 0, so the capability container is bytes 12-15 and the data area starts at 16.
public enum Type2Page {
    /// The number of bytes in a page.
    public static let size = 4

    /// The page holding byte `address`.
    public static func containing(byte address: Int) -> Int {
        address >= 0 ? address / size : (address - size + 1) / size
    }

    /// The byte address of the first byte of `page`.
    public static func firstByte(of page: Int) -> Int { page * size }

    /// The byte addresses of `page`.
    public static func bytes(of page: Int) -> Range<Int> { (page * size)..<(page * size + size) }

    /// The 4 bytes of `page` in `image`; nil when the image does not hold them.
    public static func contents(of page: Int, in image: [UInt8]) -> [UInt8]? {
        let range = bytes(of: page)
        guard page >= 0, range.upperBound <= image.count else { return nil }
        return Array(image[range])
    }

    /// The pages a non-empty byte range touches, or nil for an empty range.
    public static func pages(covering range: Range<Int>) -> ClosedRange<Int>? {
        guard !range.isEmpty else { return nil }
        return containing(byte: range.lowerBound)...containing(byte: range.upperBound - 1)
    }

    /// The offset of byte `address` inside its page (0-3).
    public static func offset(ofByte address: Int) -> Int { address - containing(byte: address) * size }

    /// The first byte address of the data area (page 4, T2T 1.1, 2.1).
    public static let dataAreaStart = 16

    /// The byte addresses of the capability container (page 3, T2T 1.1, 6.1).
    public static let capabilityContainerBytes = 12..<16

    /// The byte addresses of the static lock bytes (page 2, bytes 2-3, T2T 1.1, 2.1.2).
    public static let staticLockBytes = 10..<12
}
