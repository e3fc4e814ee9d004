import TagMemory

extension SimulatedType2Tag {
    /// A frame the tag does not expect in READY or ACTIVE (a REQA or WUPA, a SELECT for another
    /// UID): the tag goes back to its waiting state, IDLE, or HALT if it was woken from HALT
    /// (ISO/IEC 14443-3 6.3, NTAG213/215/216 8.2 state diagram). Nothing is answered or counted.
    mutating func returnToWaitingState() {
        guard state == .active || state == .ready else { return }
        state = wasHalted ? .halt : .idle
        isAuthenticated = false
        pendingCompatibilityWritePage = nil
    }

    /// The kind ``transceive(_:)`` counts `frame` as in the current state.
    func commandKind(of frame: [UInt8]) -> SimulatedType2Command {
        pendingCompatibilityWritePage != nil && state == .active
            ? .compatibilityWriteData : SimulatedType2Command(frame: frame)
    }

    /// The page `frame` writes, when it is a WRITE (A2h addr d0-d3) or the data frame of a
    /// COMPATIBILITY_WRITE in the current state; nil for every other frame.
    func writtenPage(by frame: [UInt8]) -> Int? {
        switch commandKind(of: frame) {
        case .write: frame.count == 6 ? Int(frame[1]) : nil
        case .compatibilityWriteData: frame.count == 16 ? pendingCompatibilityWritePage : nil
        default: nil
        }
    }

    /// Whether an interrupted write to `page` keeps the page's old content: page 2 (static lock
    /// bytes), page 3 (CC) and the dynamic lock page are tearing-protected (NTAG213/215/216 10.4
    /// and 10.5); the datasheet lists no other page.
    func isTearingProtected(page: Int) -> Bool {
        page == 2 || page == 3 || page == chip.dynamicLock?.page
    }

    /// Receives `frame` and refuses it with the 4-bit NAK `code` without carrying it out, as a
    /// tag whose EEPROM fails (fault injection): the frame is counted, and the tag goes back to
    /// its waiting state as after any NAK (NTAG213/215/216 9.3).
    mutating func refuse(_ frame: [UInt8], nak code: UInt8) -> SimulatedType2Response {
        receive(frame)
        fallBackAfterNak()
        return .nak(code & 0x0F)
    }

    /// Receives `frame` and acknowledges it without storing anything, as an EEPROM that fails
    /// silently (fault injection): the frame is counted, a pending COMPATIBILITY_WRITE ends.
    mutating func acknowledgeWithoutStoring(_ frame: [UInt8]) -> SimulatedType2Response {
        receive(frame)
        pendingCompatibilityWritePage = nil
        return .ack
    }

    /// Puts `content` (4 bytes) into `page` as they are, bypassing the write rules: how a torn
    /// write leaves the EEPROM. Out-of-range pages and other lengths change nothing.
    mutating func overwrite(page: Int, with content: [UInt8]) {
        guard content.count == Type2Page.size, page >= 0, page < chip.pageCount else { return }
        let start = page * Type2Page.size
        guard start + Type2Page.size <= bytes.count else { return }
        bytes.replaceSubrange(start..<(start + Type2Page.size), with: content)
        if !rules.writeLeavesRulesUnchanged(page: page) { rules = Type2Memory(bytes: bytes, chip: chip) }
    }
}
