import TagMemory

extension SimulatedType2Tag {
    /// The pages READ reaches in the current state: up to AUTH0 when PROT is set and the tag is
    /// not authenticated (the roll-over moves there, NTAG213/215/216 10.2), else up to the first
    /// unreadable page (the MIFARE Ultralight C key, MF0ICU2 9.2) or the last page. On a MIFARE
    /// Ultralight C with AUTH0 below 30h and AUTH1 bit 0 clear, reading stops at AUTH0 too
    /// (MF0ICU2 7.5.8 and 9.2; 3DES authentication is not simulated).
    var readablePageCount: Int {
        var limit = chip.unreadablePages?.lowerBound ?? chip.pageCount
        guard !isAuthenticated else { return limit }
        if let configuration = rules.configuration, configuration.isReadProtected,
            let start = configuration.firstProtectedPage
        {
            limit = min(limit, start)
        }
        if let pages = chip.tripleDESPages, let auth1 = rules.page(pages.auth1)?.first, auth1 & 0x01 == 0,
            let start = rules.firstWriteProtectedPage
        {
            limit = min(limit, start)
        }
        return limit
    }

    /// The 4 bytes READ returns for `page`: PWD and PACK read as 00h (NTAG213/215/216 8.8.1).
    func readBack(page: Int) -> [UInt8] {
        if let pages = chip.configurationPages, page == pages.password || page == pages.passwordAcknowledge {
            return [0, 0, 0, 0]
        }
        return self.page(page) ?? [0, 0, 0, 0]
    }

    /// The NFC counter counts on the first READ or FAST_READ of a field when NFC_CNT_EN is set
    /// (NTAG213/215/216 8.7), up to FFFFFFh.
    mutating func countNFCSession() {
        guard !hasCountedThisField, rules.configuration?.isNFCCounterEnabled == true else { return }
        hasCountedThisField = true
        if nfcCounter < 0xFF_FFFF { nfcCounter += 1 }
    }

    /// GET_VERSION 60h: the chip's 8-byte version (NTAG213/215/216 10.1, MF0ULX1 8.1).
    mutating func getVersion(_ frame: [UInt8]) -> SimulatedType2Response {
        guard chip.features.contains(.getVersion), frame.count == 1, let version = chip.versionResponses.first else {
            return .invalidArgument
        }
        return .data(version)
    }

    /// READ 30h addr: 16 bytes from 4 pages, rolling over to page 0 past the last readable page
    /// (NTAG213/215/216 10.2, MF0ICU1 9.3); an address past it answers NAK 0h.
    mutating func read(_ frame: [UInt8]) -> SimulatedType2Response {
        let limit = readablePageCount
        guard frame.count == 2, Int(frame[1]) < limit, limit > 0 else { return .invalidArgument }
        countNFCSession()
        let start = Int(frame[1])
        let mirror = asciiMirror
        return .data((0..<4).flatMap { readBack(page: (start + $0) % limit, mirror: mirror) })
    }

    /// FAST_READ 3Ah start end: pages start through end; NAK 0h unless start ≤ end ≤ the last
    /// readable page (NTAG213/215/216 10.3, MF0ULX1 8.3).
    mutating func fastRead(_ frame: [UInt8]) -> SimulatedType2Response {
        guard chip.features.contains(.fastRead), frame.count == 3 else { return .invalidArgument }
        let start = Int(frame[1])
        let end = Int(frame[2])
        guard start <= end, end < readablePageCount else { return .invalidArgument }
        countNFCSession()
        let mirror = asciiMirror
        return .data((start...end).flatMap { readBack(page: $0, mirror: mirror) })
    }

    /// READ_CNT 39h: on NTAG213/215/216 address 02h reads the NFC counter, 3 bytes LSB first,
    /// NAK 0h when NFC_CNT_EN is clear or NFC_CNT_PWD_PROT is set without PWD_AUTH
    /// (NTAG213/215/216 10.6); on MIFARE Ultralight EV1 addresses 00h-02h read the one-way
    /// counters (MF0ULX1 8.7).
    mutating func readCounter(_ frame: [UInt8]) -> SimulatedType2Response {
        guard frame.count == 2 else { return .invalidArgument }
        let value: UInt32
        if chip.features.contains(.nfcCounter) {
            guard frame[1] == 0x02, let configuration = rules.configuration, configuration.isNFCCounterEnabled,
                !configuration.isNFCCounterPasswordProtected || isAuthenticated
            else { return .invalidArgument }
            value = nfcCounter
        } else if chip.features.contains(.oneWayCounters) {
            guard let index = Int(exactly: frame[1]), oneWayCounters.indices.contains(index) else {
                return .invalidArgument
            }
            value = oneWayCounters[index]
        } else {
            return .invalidArgument
        }
        return .data([
            UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value >> 16),
        ])
    }

    /// READ_SIG 3Ch 00h: the 32-byte originality signature (NTAG213/215/216 10.8, MF0ULX1 8.8).
    mutating func readSignature(_ frame: [UInt8]) -> SimulatedType2Response {
        guard chip.features.contains(.readSignature), frame == [0x3C, 0x00] else { return .invalidArgument }
        return .data(signature)
    }
}
