import TagMemory

extension SimulatedField {
    /// What becomes of the command during which the tags leave the field (the N-th command of
    /// ``Faults/removeAfterCommands``). In every case the reader gets no answer.
    public enum InFlightOutcome: String, Sendable, Hashable, CaseIterable {
        /// The tag received and carried out the command; only its answer was lost.
        case completes = "complete"
        /// The tag left before the command reached it: nothing changes.
        case doesNothing = "none"
        /// The tag left while programming the EEPROM. For a WRITE or COMPATIBILITY_WRITE data
        /// frame the tag would accept, the page ends half-written: its first two bytes (bytes
        /// 0-1) hold the new data, its last two (bytes 2-3) the old. NTAG21x protect WRITE and
        /// COMPATIBILITY_WRITE of page 2 (static lock bytes), page 3 (CC) and the dynamic lock
        /// page against tearing (NTAG213/215/216 10.4 and 10.5, which list no other page): an
        /// interrupted write to one of those keeps the old content, as ``doesNothing``. Every
        /// other page tears, user memory and the configuration pages (CFG0, CFG1, PWD, PACK)
        /// alike. The simulator applies this list to every Type 2 chip. A write the tag would
        /// refuse, and every command that is not a page write, behave as ``doesNothing``.
        ///
        /// For an UPDATE BINARY (`D6`, or `D7` on a version 3.0 tag) to a Type 4 tag, the tag
        /// loses power after writing the first half of the command's data bytes, rounded down
        /// (n / 2 of n: 2 of 4, 3 of 7, none of 1; for `D7` the bytes inside its discretionary
        /// data object), through ``SimulatedType4Tag/applyPartialUpdate(_:keepingBytes:)``: those
        /// bytes are at their offset in the file, every other byte of the file keeps its old
        /// value. An UPDATE BINARY the tag would refuse writes nothing; every other APDU behaves
        /// as ``doesNothing``.
        case tearsPage = "tear"
    }

    /// Faults to inject into a field, all off by default. Arm them with ``SimulatedField/arm(_:)``:
    /// arming starts the command and answer counts afresh.
    public struct Faults: Sendable, Hashable {
        /// The tags leave the field during the N-th command (``SimulatedField/transceive(_:)``
        /// or ``SimulatedField/transceiveAPDU(_:)``: frames and APDUs count alike) after
        /// arming; that command ends as ``inFlight`` says, and every later one goes unanswered
        /// until ``SimulatedField/putBack()``. The fault fires once per arming.
        /// 0 or less: the tags leave as soon as the faults are armed.
        public var removeAfterCommands: Int?
        /// What becomes of the command in flight when the tags leave.
        public var inFlight: InFlightOutcome
        /// Whether a second tag (the same chip as the first, or a Type 4 tag of the same
        /// configuration, with another UID) is in the field.
        public var secondTag: Bool
        /// How long the reader takes per command, in milliseconds: applied by the reader that
        /// holds the field (the field itself never waits).
        public var latencyMilliseconds: Int?
        /// Every N-th answer after arming arrives corrupted (``SimulatedFieldReply/corrupted(_:)``);
        /// 0 or less: none.
        public var corruptEveryNthResponse: Int?
        /// The N-th write after arming is refused without being carried out, as by a tag whose
        /// EEPROM fails. Writes are counted apart from other commands: a Type 2 WRITE or the
        /// data frame of a COMPATIBILITY_WRITE, well formed, or a Type 4 UPDATE BINARY, reaching an
        /// ACTIVE tag. A Type 2 tag answers NAK ``nakCode``
        /// and goes back to IDLE (HALT if it was woken from HALT), as after any NAK
        /// (NTAG213/215/216 9.3); a Type 4 tag answers ``nakStatusWord`` and stays selected.
        /// The refused write counts as a command and as an answer. The fault fires once per
        /// arming; 0 or less: none.
        public var nakWrite: Int?
        /// The 4-bit NAK a Type 2 tag answers for ``nakWrite``: 5h (EEPROM write error,
        /// NTAG213/215/216 9.3) by default; 0h is the invalid-argument NAK a locked page gets.
        public var nakCode: UInt8
        /// The status word a Type 4 tag answers for ``nakWrite``: `6581` (memory failure,
        /// ISO/IEC 7816-4 5.6) by default.
        public var nakStatusWord: UInt16
        /// The N-th write after arming (counted as for ``nakWrite``) is acknowledged but not
        /// stored: a Type 2 tag answers ACK, a Type 4 tag `9000`, and the memory keeps its old
        /// content, as an EEPROM that fails silently does; only reading back reveals it. When
        /// ``nakWrite`` names the same write, the NAK wins. The fault fires once per arming;
        /// 0 or less: none.
        public var loseWrite: Int?
        /// What every Type 2 tag answers to GET_VERSION instead of its chip's version
        /// (NTAG213/215/216 10.1): a chip outside the catalogue, a clone, a garbled answer. A
        /// tag that has no GET_VERSION (MIFARE Ultralight, MF0ICU1) still answers NAK. nil: the
        /// chip's own answer.
        public var versionAnswer: [UInt8]?

        /// Creates a set of faults; the defaults inject none.
        public init(
            removeAfterCommands: Int? = nil,
            inFlight: InFlightOutcome = .doesNothing,
            secondTag: Bool = false,
            latencyMilliseconds: Int? = nil,
            corruptEveryNthResponse: Int? = nil,
            nakWrite: Int? = nil,
            nakCode: UInt8 = 0x5,
            nakStatusWord: UInt16 = 0x6581,
            loseWrite: Int? = nil,
            versionAnswer: [UInt8]? = nil
        ) {
            self.removeAfterCommands = removeAfterCommands
            self.inFlight = inFlight
            self.secondTag = secondTag
            self.latencyMilliseconds = latencyMilliseconds
            self.corruptEveryNthResponse = corruptEveryNthResponse
            self.nakWrite = nakWrite
            self.nakCode = nakCode
            self.nakStatusWord = nakStatusWord
            self.loseWrite = loseWrite
            self.versionAnswer = versionAnswer
        }

        /// No faults.
        public static let none = Faults()
    }

    /// Arms `faults`: the command, write and answer counts start from zero, a pending removal,
    /// NAK or lost write is cancelled (tags already out stay out until ``putBack()``), and the
    /// second tag is put in or, when `faults` no longer asks for it, taken out.
    public mutating func arm(_ faults: Faults) {
        self.faults = faults
        commandsSinceArmed = 0
        writesSinceArmed = 0
        responsesSinceArmed = 0
        removalFired = false
        if faults.secondTag, addedSecondTagUID == nil {
            let tag = makeSecondTag()
            if insert(tag) { addedSecondTagUID = tag.uid }
        } else if !faults.secondTag, let uid = addedSecondTagUID {
            remove(uid: uid)
        }
        if let count = faults.removeAfterCommands, count <= 0 { takeTagsOut() }
    }

    /// Disarms every fault (the same as arming ``Faults/none``).
    public mutating func disarm() {
        arm(.none)
    }

    /// The tags that left the field by a fault come back, in IDLE (they lost power while out).
    /// The removal does not fire again until the faults are armed anew.
    public mutating func putBack() {
        tags.append(contentsOf: removedTags)
        removedTags = []
        tagsHaveLeft = false
    }

    /// Every tag leaves the field, powering down; nothing is selected.
    mutating func takeTagsOut() {
        removalFired = true
        tagsHaveLeft = true
        selectedUID = nil
        for index in tags.indices { tags[index].fieldOff() }
        removedTags.append(contentsOf: tags)
        tags = []
    }

    /// A tag for ``Faults/secondTag``: a factory tag of the first tag's chip (NTAG215 in an
    /// empty field) whose UID differs from every other in the last byte. For a first tag of
    /// Type 4, a factory Type 4 tag of the same configuration (an empty NDEF file); for a MIFARE
    /// Classic card, a factory card of the same product.
    func makeSecondTag() -> SimulatedTag {
        let first = tags.first ?? removedTags.first
        if case .type4(let tag) = first {
            var configuration = tag.configuration
            configuration.uid = unusedUID(like: tag.uid)
            if let second = try? SimulatedType4Tag(configuration: configuration) { return .type4(second) }
        }
        if case .classic(let card) = first {
            return .classic(SimulatedClassicTag(type: card.type, uid: unusedUID(like: card.uid)))
        }
        let chip = first?.type2Tag?.chip ?? .ntag215
        let base = (first?.uid).flatMap { $0.count == 7 ? $0 : nil } ?? SimulatedType2Tag.defaultUID
        return .type2(SimulatedType2Tag(chip: chip, uid: unusedUID(like: base)))
    }

    /// `base` with its last byte changed so that no tag of the field has it (the first of the
    /// 255 other values that is free).
    private func unusedUID(like base: [UInt8]) -> [UInt8] {
        guard let last = base.indices.last else { return base }
        var uid = base
        for step in UInt8(1)...UInt8(255) {
            uid[last] = base[last] ^ step
            if tag(uid: uid) == nil { break }
        }
        return uid
    }
}
