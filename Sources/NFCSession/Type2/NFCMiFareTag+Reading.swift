import NDEF
import TagMemory

/// Reading: NDEF status and message (NFC Forum Type 2 Tag 1.1, 6.4.1 NDEF detection and 6.4.2
/// NDEF read), and whole-memory reads.
extension NFCMiFareTag {
    /// Pages read first to find the NDEF status: the CC and the first 16 data bytes, where the
    /// NDEF TLV's T byte is on NXP formatted tags (byte 16, or 21 after NTAG213's Lock Control TLV).
    static let statusFirstPages = 8
    /// Pages read first to get the message with FAST_READ: 128 bytes, which hold most messages (a
    /// URL or a short text); reading them costs about as much air time as one more command round
    /// trip (about 10 ms at 106 kbit/s), and a longer message is read whole by the next reads.
    static let messageFirstPages = 32

    /// The pages of the first read for a message: ``messageFirstPages`` with FAST_READ; with READ,
    /// where every 4 pages cost a command, the ``statusFirstPages`` that show the TLV headers.
    var messageFirstPages: Int { usesFastRead ? Self.messageFirstPages : Self.statusFirstPages }

    /// The pages every status or plan needs besides the TLV area: the dynamic lock page, CFG0
    /// and CFG1 (AUTH0, ACCESS with PROT and CFGLCK; NTAG213/215/216 8.5.3, 8.5.7), or the
    /// MIFARE Ultralight C AUTH0 and AUTH1 pages (MF0ICU2 7.5.8).
    var controlPages: [Int] {
        guard let chip else { return [] }
        var pages: [Int] = []
        if let lock = chip.dynamicLock { pages.append(lock.page) }
        if let configuration = chip.configurationPages { pages += [configuration.cfg0, configuration.cfg1] }
        if let tripleDES = chip.tripleDESPages { pages += [tripleDES.auth0, tripleDES.auth1] }
        return pages
    }

    /// A cache sized to the identified chip.
    func makeCache() -> Type2PageCache { Type2PageCache(pageCount: chip?.pageCount ?? 256) }

    /// Reads from page 0 until the first NDEF Message TLV is known (whole when `throughMessage`,
    /// else up to its T byte), or the TLVs show there is none, together with `extra` pages.
    ///
    /// The first read covers `firstPages` pages and `extra` (merged into as few commands as the
    /// frame size allows); each following read covers exactly the block the scan stopped in
    /// (``Type2ReadExtent``), so a message longer than the first read costs one more read.
    ///
    /// - Returns: the memory of the pages read without a gap from page 0.
    func loadNDEFArea(
        _ cache: inout Type2PageCache, firstPages: Int, extra: [Int], throughMessage: Bool
    ) async throws(NFCReaderError) -> Type2Memory {
        let first = chip == nil ? 4 : max(4, firstPages)
        try await load(Array(0..<first) + extra, into: &cache)
        while true {
            let memory = Type2Memory(bytes: cache.prefixImage, chip: chip)
            guard
                let needed = Type2ReadExtent.pagesStillNeeded(
                    memory, prefixPages: cache.prefixPageCount, throughMessage: throughMessage)
            else { return memory }
            let before = cache.prefixPageCount
            try await load(needed, into: &cache)
            if cache.prefixPageCount == before { return memory }
        }
    }

    /// Reads the TLV area and the control pages for a status: the control pages are merged into
    /// the first read; when that read is refused for want of authentication and the control pages
    /// are what is protected, the TLV area is read alone and the control pages are left unknown
    /// (their lock bits count as clear).
    func loadStatusArea(_ cache: inout Type2PageCache, firstPages: Int) async throws(NFCReaderError) -> Type2Memory {
        do {
            try await load(Array(0..<max(4, chip == nil ? 4 : firstPages)) + controlPages, into: &cache)
        } catch {
            guard error.code == .authenticationRequired else { throw error }
        }
        let memory = try await loadNDEFArea(&cache, firstPages: firstPages, extra: [], throughMessage: false)
        try await loadGenericLockPages(memory, into: &cache, strict: false)
        return memory
    }

    /// For a chip not in the catalogue: reads the dynamic lock bytes where the Lock Control TLV
    /// or the NFC Forum default puts them (T2T 1.1, 2.2.2, 2.3.2). When not `strict`, a refused
    /// read leaves them unknown.
    func loadGenericLockPages(
        _ memory: Type2Memory, into cache: inout Type2PageCache, strict: Bool
    ) async throws(NFCReaderError) {
        guard chip == nil, let generic = memory.genericDynamicLock,
            let pages = Type2Page.pages(covering: generic.lockBytes)
        else { return }
        do {
            try await load(Array(pages), into: &cache, limit: min(cache.pageCount, pages.upperBound + 1))
        } catch {
            if strict || error.code == .tagConnectionLost { throw error }
        }
    }

    /// The NDEF status and capacity, as CoreNFC's `queryNDEFStatus` gives them (T2T 1.1, 6.4.1).
    ///
    /// See ``ndefStatus()`` for the rules.
    public func queryNDEFStatus() async throws(NFCReaderError) -> (NFCNDEFStatus, Int) {
        let status = try await ndefStatus()
        return (status.status, status.capacity)
    }

    /// The NDEF status and capacity, from a fresh read of the CC, the TLVs up to the NDEF Message
    /// TLV, and the lock and configuration pages (``TagMemory/Type2Memory/ndefStatus`` gives the rules: CC
    /// magic number, version and access nibbles, T2T 1.1 6.1; lock bits, 2.2).
    ///
    /// Password protection does not make a tag read-only here, as on a phone: ``passwordStatus()``
    /// tells. Commands on an NTAG215: one FAST_READ of pages 0-7 and one of the lock and
    /// configuration pages; on an NTAG213 one FAST_READ covers both.
    ///
    /// - Throws: ``NFCReaderError/Code/authenticationRequired`` when the CC or the TLV area is
    ///   read-protected, and the reader's errors.
    public func ndefStatus() async throws(NFCReaderError) -> NDEFTagStatus {
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        _ = try await loadStatusArea(&cache, firstPages: Self.statusFirstPages)
        return Type2Memory(bytes: cache.fullImage, chip: chip).ndefStatus
    }

    /// Reads the NDEF message (T2T 1.1, 6.4.2): the CC and the TLV area up to the end of the NDEF
    /// Message TLV, and no further.
    ///
    /// The first read covers 128 bytes with FAST_READ (`messageFirstPages`), 32 bytes with READ;
    /// a longer message is read whole by the next reads, sized from the TLV length. A 100-byte
    /// message on an NTAG215 takes one FAST_READ, or 8 READs.
    ///
    /// - Throws: ``NFCReaderError/Code/zeroLengthMessage`` when the NDEF TLV is empty (an
    ///   INITIALIZED tag, 6.3.1), as CoreNFC does; ``NFCReaderError/Code/tagNotSupported`` when the
    ///   tag is not NDEF formatted, its CC denies reading or it has no NDEF Message TLV;
    ///   ``NFCReaderError/Code/invalidMessage`` when the TLV or the message is malformed;
    ///   ``NFCReaderError/Code/authenticationRequired`` when the pages are read-protected.
    public func readNDEF() async throws(NFCReaderError) -> NFCNDEFMessage {
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        let memory = try await loadNDEFArea(
            &cache, firstPages: messageFirstPages, extra: [], throughMessage: true)
        return try Self.message(in: memory)
    }

    /// Reads every readable page: the whole memory as far as the tag shows it (PWD and PACK read
    /// as 00h, NTAG213/215/216 8.8.1; read-protected pages answer NAK and end the read with
    /// ``NFCReaderError/Code/authenticationRequired`` unless authenticated).
    public func readMemory() async throws(NFCReaderError) -> Type2Memory {
        try await beginOperation()
        defer { endOperation() }
        var cache = makeCache()
        try await loadWholeMemory(&cache)
        return Type2Memory(bytes: Array(cache.fullImage.prefix(cache.prefixPageCount * Type2Page.size)), chip: chip)
    }

    /// Reads every readable page into `cache`: the chip's pages, or for an unknown chip the pages
    /// up to the end of the data area the CC announces and the dynamic lock bytes.
    func loadWholeMemory(_ cache: inout Type2PageCache) async throws(NFCReaderError) {
        if chip == nil { try await load(Array(0..<4), into: &cache) }
        try await load(Array(0..<readablePageLimit(cache)), into: &cache)
        try await loadGenericLockPages(
            Type2Memory(bytes: cache.prefixImage, chip: chip), into: &cache, strict: false)
    }

    /// The message of `memory`, or the error a read reports.
    static func message(in memory: Type2Memory) throws(NFCReaderError) -> NFCNDEFMessage {
        guard let cc = memory.capabilityContainer, cc.problem == nil else {
            throw NFCReaderError(
                .tagNotSupported, "the tag is not NDEF formatted: \(memory.ndefStatusReason ?? "no NDEF CC")")
        }
        guard cc.readAccess == .granted else {
            throw NFCReaderError(.tagNotSupported, "the capability container does not grant read access")
        }
        if let message = memory.message { return message }
        if let problem = memory.problem {
            switch problem.code {
            case .notFormatted:
                throw NFCReaderError(.tagNotSupported, "the tag holds no NDEF message: \(problem.reason)")
            case .truncatedImage:
                throw NFCReaderError(.tagResponseError, "the NDEF message could not be read whole: \(problem.reason)")
            default:
                throw NFCReaderError(.invalidMessage, problem.reason)
            }
        }
        throw NFCReaderError(.zeroLengthMessage, "the tag holds an empty NDEF message (NDEF TLV length 0)")
    }
}

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

    /// Marks `pages` unread, so that the next load reads them again (pages a mirror showed
    /// differently before it was turned off).
    mutating func forget(_ pages: some Sequence<Int>) {
        for page in pages where page >= 0 && page < pageCount { known[page] = false }
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

/// How far a reader must read a Type 2 tag to see a TLV block whole, from the part read so far.
///
/// NFC Forum Type 2 Tag 1.1, 2.3: a block is T, L (one byte, or FFh and two big-endian bytes) and
/// L value bytes; NULL (00h) and Terminator (FEh) are one byte; every byte skips the bytes that
/// Lock and Memory Control TLVs before it reserve (2.2.1). The first read of an operation shows
/// the CC and the first TLV headers; these functions turn a block cut off by the end of that read
/// into the pages still needed, so the second read is the last.
enum Type2ReadExtent {
    /// The pages to read next so that the TLV scan of `memory` (a prefix of the tag, `prefixPages`
    /// pages long) gets past the block it stopped in; nil when nothing more is needed: the first
    /// NDEF Message TLV is whole (or, unless `throughMessage`, its T byte is known), or the scan
    /// ended for good (no NDEF CC, a Terminator, a malformed block, the end of the data area).
    static func pagesStillNeeded(_ memory: Type2Memory, prefixPages: Int, throughMessage: Bool) -> [Int]? {
        guard let cc = memory.capabilityContainer else {
            return prefixPages < 4 ? Array(prefixPages..<4) : nil
        }
        guard cc.problem == nil, let area = memory.dataArea, let scan = memory.tlvScan else { return nil }
        if scan.firstNDEFMessage != nil { return nil }
        guard let error = scan.error, error.code == .truncatedImage, let start = scan.failedTypeAddress else {
            return nil
        }
        if scan.failedType == 0x03, !throughMessage { return nil }
        let end = endOfBlock(at: start, in: memory.bytes, reserved: scan.reserved, area: area)
        let lastPage = Type2Page.containing(byte: end - 1)
        return lastPage >= prefixPages ? Array(prefixPages...lastPage) : nil
    }

    /// The address just past the block whose T byte is at `start`, as far as `bytes` tell: past its
    /// value when its length bytes are known, else past the length bytes still to read. Never
    /// beyond the data area.
    static func endOfBlock(at start: Int, in bytes: [UInt8], reserved: ReservedByteRanges, area: Range<Int>) -> Int {
        let limit = area.upperBound
        let type = reserved.nextFree(from: start)
        guard type < bytes.count else { return min(limit, type + 4) }
        if bytes[type] == 0x00 || bytes[type] == 0xFE { return min(limit, type + 1) }
        let first = reserved.nextFree(from: type + 1)
        guard first < bytes.count else { return min(limit, first + 3) }
        var length = Int(bytes[first])
        var last = first
        if bytes[first] == 0xFF {
            let high = reserved.nextFree(from: first + 1)
            let low = reserved.nextFree(from: high + 1)
            guard low < bytes.count else { return min(limit, low + 1) }
            length = Int(bytes[high]) << 8 | Int(bytes[low])
            last = low
        }
        return min(limit, endOfRun(after: last, length: length, reserved: reserved, limit: limit))
    }

    /// The address just past `length` free bytes after `address` (reserved bytes skipped).
    static func endOfRun(after address: Int, length: Int, reserved: ReservedByteRanges, limit: Int) -> Int {
        guard length > 0 else { return address + 1 }
        guard address + 1 < limit else { return limit }
        var remaining = length
        for run in reserved.freeRanges(in: (address + 1)..<limit) {
            if run.count >= remaining { return run.lowerBound + remaining }
            remaining -= run.count
        }
        return limit
    }
}
