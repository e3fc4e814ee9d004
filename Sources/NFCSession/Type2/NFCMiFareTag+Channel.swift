import NFCWireFormat
import TagMemory

/// Raw frames, with the state changes a NAK causes, and the page reads every operation uses.
extension NFCMiFareTag {
    /// Sends one frame, selecting the tag first when a NAK or a lost answer left it outside the
    /// ACTIVE state. A NAK marks the tag for re-selection and ends authentication (NTAG213/215/216
    /// 9.3: the tag returns to IDLE or HALT).
    func exchange(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        if needsReselect { try await reselect() }
        commandsSent += 1
        do {
            let response = try await reader.transceive(frame)
            if case .nak = response {
                needsReselect = true
                authenticated = false
            }
            return response
        } catch {
            if error.code == .tagConnectionLost || error.code == .tagResponseError {
                needsReselect = true
                authenticated = false
            }
            throw error
        }
    }

    /// Selects the tag again (ISO/IEC 14443-3 WUPA, anticollision, SELECT): it is ACTIVE and no
    /// longer authenticated.
    func reselect() async throws(NFCReaderError) {
        authenticated = false
        try await reader.select(targetInfo)
        needsReselect = false
    }

    /// Whether FAST_READ is used: the reader passes it and the chip, identified by GET_VERSION,
    /// has it (NTAG213/215/216 10.3, MF0ULX1 8.3).
    var usesFastRead: Bool { reader.capabilities.supportsFastRead && identification.allowsFastRead }

    /// The most pages one FAST_READ may return: its answer is (end − start + 1) × 4 bytes and must
    /// fit the reader's frame.
    var pagesPerFastRead: Int { max(1, reader.capabilities.maximumFrameSize / Type2Page.size) }

    /// The pages READ reaches on the identified chip (the MIFARE Ultralight C key pages never
    /// read), or for an unknown chip those up to the end of the data area the CC announces.
    func readablePageLimit(_ cache: Type2PageCache) -> Int {
        if let chip { return Type2Identifier.readablePageCount(chip) }
        guard let page = cache.page(3), let cc = try? Type2CapabilityContainer(bytes: page), cc.problem == nil else {
            return 4
        }
        return min(cache.pageCount, 4 + cc.dataAreaSize / Type2Page.size)
    }

    /// Reads the pages of `pages` the cache lacks, with as few commands as possible: FAST_READ
    /// windows of at most ``pagesPerFastRead`` pages, or READs of 4 pages, each starting at the
    /// first page still missing (covering sorted points with fixed windows greedily is optimal).
    ///
    /// Pages past the readable limit (``readablePageLimit(_:)``, or `limit`) are left unread. A
    /// READ near the end of the memory rolls over to page 0 (NTAG213/215/216 10.2): only pages
    /// below the limit are kept.
    ///
    /// - Throws: ``NFCReaderError/Code/authenticationRequired`` when a read answers NAK on a chip
    ///   with password or 3DES protection and no authentication (PROT or AUTH1 read protection),
    ///   ``NFCReaderError/Code/tagResponseError`` for another NAK or a malformed answer, and the
    ///   reader's errors.
    func load(_ pages: [Int], into cache: inout Type2PageCache, limit: Int? = nil) async throws(NFCReaderError) {
        let limit = limit ?? readablePageLimit(cache)
        let missing = Set(cache.missing(in: pages).filter { $0 < limit }).sorted()
        var index = 0
        while index < missing.count {
            let start = missing[index]
            if usesFastRead {
                var end = start
                while index < missing.count, missing[index] < start + pagesPerFastRead {
                    end = missing[index]
                    index += 1
                }
                cache.store(from: start, try await fastRead(start...end))
            } else {
                let data = try await readBlock(at: start)
                let kept = min(4, limit - start)
                cache.store(from: start, Array(data.prefix(kept * Type2Page.size)))
                while index < missing.count, missing[index] < start + 4 { index += 1 }
            }
        }
    }

    /// READ 30h: the 16 bytes of 4 pages from `page` (T2T 1.1, 5.1).
    func readBlock(at page: Int) async throws(NFCReaderError) -> [UInt8] {
        let wasAuthenticated = authenticated
        let response = try await exchange(Type2Command.read.frame([UInt8(truncatingIfNeeded: page)]))
        return try checkedData(
            response, count: 16, command: "READ of page \(page)", pages: page...(page + 3),
            wasAuthenticated: wasAuthenticated)
    }

    /// FAST_READ 3Ah: pages `pages.lowerBound` through `pages.upperBound` (NTAG213/215/216 10.3).
    func fastRead(_ pages: ClosedRange<Int>) async throws(NFCReaderError) -> [UInt8] {
        let frame = Type2Command.fastRead.frame([
            UInt8(truncatingIfNeeded: pages.lowerBound), UInt8(truncatingIfNeeded: pages.upperBound),
        ])
        let wasAuthenticated = authenticated
        let response = try await exchange(frame)
        return try checkedData(
            response, count: pages.count * Type2Page.size,
            command: "FAST_READ of pages \(pages.lowerBound)-\(pages.upperBound)", pages: pages,
            wasAuthenticated: wasAuthenticated)
    }

    /// The data of a read answer of `count` bytes, or the error it stands for.
    private func checkedData(
        _ response: NFCRawResponse, count: Int, command: String, pages: ClosedRange<Int>, wasAuthenticated: Bool
    ) throws(NFCReaderError) -> [UInt8] {
        switch response {
        case .data(let bytes) where bytes.count == count:
            return bytes
        case .data(let bytes):
            throw NFCReaderError(.tagResponseError, "\(command) answered \(bytes.count) bytes, not \(count)")
        case .ack:
            throw NFCReaderError(.tagResponseError, "\(command) answered ACK instead of data")
        case .nak(let code):
            let features = chip?.features ?? []
            if !wasAuthenticated,
                features.contains(.passwordAuthentication) || features.contains(.tripleDESAuthentication)
            {
                throw NFCReaderError(
                    .authenticationRequired,
                    "\(command) was refused (NAK \(code)h): pages \(pages.lowerBound)-\(pages.upperBound) are "
                        + "read-protected; authenticate first")
            }
            throw NFCReaderError(.tagResponseError, "\(command) was refused (NAK \(code)h)")
        }
    }
}
