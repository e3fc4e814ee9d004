import TagMemory

/// The pages of a Type 2 tag read so far in one operation, by page number.
///
/// READ and FAST_READ answers are stored page by page (NFC Forum Type 2 Tag 1.1, 5.1; NTAG213/215/216
/// 10.2, 10.3); unread pages are unknown. Two views feed TagMemory: ``prefixImage`` (the pages read
/// without a gap from page 0, so a TLV that runs past them shows as a truncated image) and
/// ``fullImage`` (every page, unread ones as 00h, for status and plans once every page they depend on
/// is read).
struct Type2PageCache: Sendable {
    /// The number of pages the image may hold: the chip's, or 256 for an unknown chip.
    let pageCount: Int
    /// The bytes, 4 per page, 00h where unknown.
    private(set) var bytes: [UInt8]
    /// Which pages were read.
    private(set) var known: [Bool]

    /// An empty cache for `pageCount` pages (at least 4).
    init(pageCount: Int) {
        let count = max(4, min(pageCount, 256))
        self.pageCount = count
        self.bytes = [UInt8](repeating: 0, count: count * Type2Page.size)
        self.known = [Bool](repeating: false, count: count)
    }

    /// Stores `data` (a whole number of pages) as the content of the pages from `page` on; pages
    /// past the cache are dropped.
    mutating func store(from page: Int, _ data: [UInt8]) {
        for index in 0..<(data.count / Type2Page.size) {
            let target = page + index
            guard target >= 0, target < pageCount else { continue }
            let source = index * Type2Page.size
            bytes.replaceSubrange(Type2Page.bytes(of: target), with: data[source..<(source + Type2Page.size)])
            known[target] = true
        }
    }

    /// Whether `page` was read.
    func isKnown(_ page: Int) -> Bool { page >= 0 && page < pageCount && known[page] }

    /// The pages of `pages` not read yet, in order.
    func missing(in pages: some Sequence<Int>) -> [Int] {
        pages.filter { $0 >= 0 && $0 < pageCount && !known[$0] }
    }

    /// The number of pages read without a gap from page 0.
    var prefixPageCount: Int { known.firstIndex(of: false) ?? pageCount }

    /// The bytes of the pages read without a gap from page 0.
    var prefixImage: [UInt8] { Array(bytes.prefix(prefixPageCount * Type2Page.size)) }

    /// Every page, unread ones as 00h.
    var fullImage: [UInt8] { bytes }

    /// The 4 bytes of `page`, if read.
    func page(_ page: Int) -> [UInt8]? {
        isKnown(page) ? Array(bytes[Type2Page.bytes(of: page)]) : nil
    }
}
