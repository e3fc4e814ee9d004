/// The RF field of one simulated reader: zero or more simulated tags, the ISO/IEC 14443-3
/// Type A activation of one of them, and injectable faults (``Faults``).
///
/// A pure value: nothing here sleeps or touches files. ``poll(_:)`` lists the tags as a reader's
/// anticollision loop does, ``select(uid:)`` activates one, ``transceive(_:)`` sends it a Type 2
/// frame and ``transceiveAPDU(_:)`` a command APDU (to a Type 4 tag).
/// Faults (the tags leaving the field after some commands, a write refused with a NAK or
/// acknowledged but not stored, corrupted answers, a GET_VERSION answer from outside the
/// catalogue, a second tag) are armed with ``arm(_:)``; see ``Faults``.
public struct SimulatedField: Sendable {
    /// The request that opens a poll (ISO/IEC 14443-3 6.3.2, 6.4.1).
    public enum Request: Sendable, Hashable, CaseIterable {
        /// REQA (26h, 7 bits): only IDLE tags answer.
        case reqa
        /// WUPA (52h, 7 bits): IDLE and HALT tags answer.
        case wupa
    }

    /// The tags in the field, in the order they entered it.
    public internal(set) var tags: [SimulatedTag]
    /// The tags that left the field by the ``Faults/removeAfterCommands`` fault, until ``putBack()``.
    public internal(set) var removedTags: [SimulatedTag] = []
    /// Whether the reader's field is on.
    public internal(set) var isOn = true
    /// The UID of the tag the last ``select(uid:)`` activated, until a poll, another select or
    /// the field going off.
    public internal(set) var selectedUID: [UInt8]?
    /// The faults armed (none by default).
    public internal(set) var faults = Faults()
    /// The commands (``transceive(_:)`` and ``transceiveAPDU(_:)`` calls) since the faults were armed.
    public internal(set) var commandsSinceArmed = 0
    /// The writes (see ``Faults/nakWrite``) since the faults were armed.
    public internal(set) var writesSinceArmed = 0
    /// The answers (replies other than ``SimulatedFieldReply/silent``) since the faults were armed.
    public internal(set) var responsesSinceArmed = 0
    /// How many times ``select(uid:)`` activated a tag (anticollision inside ``poll(_:)`` aside);
    /// ``resetCommandCounts()`` leaves it.
    public internal(set) var selectCount = 0
    /// Whether a magic card acknowledged the backdoor's 40h, so that it takes 43h next.
    var isBackdoorOpen = false
    /// Whether the ``Faults/removeAfterCommands`` fault fired and the tags are still out.
    public internal(set) var tagsHaveLeft = false
    /// Whether ``log`` records every command (off by default, so long runs do not grow memory).
    public var isRecordingCommands = false
    /// The commands sent while ``isRecordingCommands`` was on, in order, with what became of them.
    public internal(set) var log: [LogEntry] = []
    /// The UID of the tag ``arm(_:)`` put in for ``Faults/secondTag``.
    var addedSecondTagUID: [UInt8]?
    /// Whether the removal fault fired since the faults were armed.
    var removalFired = false

    /// Creates a field holding `tags` (a tag whose UID is already present is left out).
    public init(tags: [SimulatedTag] = []) {
        self.tags = []
        for tag in tags { insert(tag) }
    }

    /// Creates a field holding one tag.
    public init(_ tag: SimulatedTag) {
        self.init(tags: [tag])
    }

    /// The tag with `uid`, in the field or removed from it by a fault.
    public func tag(uid: [UInt8]) -> SimulatedTag? {
        tags.first { $0.uid == uid } ?? removedTags.first { $0.uid == uid }
    }

    /// The selected tag, if it is still in the field.
    public var selectedTag: SimulatedTag? {
        selectedIndex.map { tags[$0] }
    }

    /// The index in ``tags`` of the selected tag.
    var selectedIndex: Int? {
        guard isOn, let selectedUID else { return nil }
        return tags.firstIndex { $0.uid == selectedUID }
    }

    /// Puts `tag` into the field, in IDLE. Returns false, changing nothing, when a tag with the
    /// same UID is already in the field or out of it by a fault.
    @discardableResult
    public mutating func insert(_ tag: SimulatedTag) -> Bool {
        guard self.tag(uid: tag.uid) == nil else { return false }
        var entering = tag
        entering.fieldOff()
        tags.append(entering)
        return true
    }

    /// Takes the tag with `uid` away (from the field or from the removed tags) and returns it.
    @discardableResult
    public mutating func remove(uid: [UInt8]) -> SimulatedTag? {
        if selectedUID == uid { selectedUID = nil }
        if addedSecondTagUID == uid { addedSecondTagUID = nil }
        if let index = tags.firstIndex(where: { $0.uid == uid }) { return tags.remove(at: index) }
        if let index = removedTags.firstIndex(where: { $0.uid == uid }) { return removedTags.remove(at: index) }
        return nil
    }

    /// Lists the tags that answer `request`, as a reader's anticollision loop does
    /// (ISO/IEC 14443-3 6.4): a tag in READY or ACTIVE first takes the request as an unexpected
    /// frame and goes back to IDLE (HALT if it was woken from HALT); then every tag that answers
    /// the request takes part, and one at a time is selected and halted (HLTA, 6.4.3) until none
    /// is left. Afterwards the listed tags are HALT: a REQA finds none of them, a WUPA or
    /// ``select(uid:)`` wakes them.
    ///
    /// Simplification: the tag anticollision settles on is the one that entered the field first,
    /// not the one the UID bits would favour. A field that is off lists nothing.
    ///
    /// - Returns: the listed tags, in the order they were found.
    @discardableResult
    public mutating func poll(_ request: Request = .wupa) -> [SimulatedTag] {
        poll(request, limit: tags.count)
    }

    /// Lists at most `limit` of the tags that answer `request` (only the one with `uid`, when
    /// given), as a reader whose anticollision loop stops there (a PN532 with MaxTg 1 or 2, or
    /// told the UID to look for): the listed tags end HALT as in ``poll(_:)``; the others go
    /// back to IDLE (HALT if woken from HALT), since a tag in READY takes the SELECT of another
    /// tag as an unexpected frame (ISO/IEC 14443-3 6.4), and answer the next request.
    ///
    /// - Returns: the listed tags, in the order they were found.
    @discardableResult
    public mutating func poll(_ request: Request, limit: Int, uid: [UInt8]? = nil) -> [SimulatedTag] {
        selectedUID = nil
        guard isOn else { return [] }
        for index in tags.indices { tags[index].returnToWaitingState() }
        let answering = tags.indices.filter { tags[$0].answers(request) && (uid == nil || tags[$0].uid == uid) }
        let listed = answering.prefix(max(0, limit))
        for index in listed {
            tags[index].select()
            tags[index].halt()
        }
        return listed.map { tags[$0] }
    }

    /// WUPA, anticollision with `uid` and SELECT (ISO/IEC 14443-3 6.4): the tag with `uid`
    /// becomes ACTIVE, whether it was IDLE or HALT, and its session state (authentication, a
    /// pending COMPATIBILITY_WRITE) starts afresh. A tag that was ACTIVE goes back to IDLE
    /// (HALT if it was woken from HALT).
    ///
    /// - Returns: false when the field is off or no tag with `uid` is in it.
    @discardableResult
    public mutating func select(uid: [UInt8]) -> Bool {
        selectedUID = nil
        guard isOn, let target = tags.firstIndex(where: { $0.uid == uid }) else { return false }
        for index in tags.indices { tags[index].returnToWaitingState() }
        tags[target].select()
        selectedUID = uid
        selectCount += 1
        return true
    }

    /// HLTA (ISO/IEC 14443-3 6.4.3), or S(DESELECT) for an ISO-DEP tag (ISO/IEC 14443-4 8):
    /// the selected tag halts, answering nothing until a WUPA or ``select(uid:)`` wakes it, and
    /// nothing is selected. HLTA gets no answer, so it counts as no command.
    ///
    /// - Returns: false when no tag is selected.
    @discardableResult
    public mutating func haltSelected() -> Bool {
        guard let index = selectedIndex else { return false }
        tags[index].halt()
        selectedUID = nil
        return true
    }

    /// A frame of the "Gen1a" backdoor of magic MIFARE Classic clones, sent without CRC: the
    /// 7-bit frame 40h, then the 8-bit 43h. A Gen1a card in the field
    /// (``SimulatedClassicTag/answersGen1aBackdoor``) acknowledges each (a 4-bit ACK, true);
    /// nothing else answers them, genuine cards included (ISO/IEC 14443-3 6.3.1 knows no such
    /// short frame). Nothing is selected afterwards. Simplification: the card answers in any
    /// state; real clones expect a HLTA first, which every caller here sends.
    public mutating func receiveBackdoorFrame(_ byte: UInt8, bits: Int) -> Bool {
        selectedUID = nil
        let hasMagicCard = isOn && tags.contains { $0.classicTag?.answersGen1aBackdoor == true }
        switch (byte, bits) {
        case (0x40, 7):
            isBackdoorOpen = hasMagicCard
        case (0x43, 8):
            let answered = isBackdoorOpen && hasMagicCard
            isBackdoorOpen = false
            return answered
        default:
            isBackdoorOpen = false
        }
        return isBackdoorOpen
    }

    /// The field goes off: every tag in it powers down to IDLE (losing authentication and the
    /// once-per-field NFC counter increment) and nothing is selected.
    public mutating func fieldOff() {
        isOn = false
        selectedUID = nil
        for index in tags.indices { tags[index].fieldOff() }
    }

    /// The field comes on: the tags wait in IDLE.
    public mutating func fieldOn() {
        isOn = true
    }
}

extension SimulatedField {
    /// Applies ``Faults/nakWrite`` or ``Faults/loseWrite`` to `frame` when it is a write to the
    /// ACTIVE Type 2 tag or MIFARE Classic card at `index` (a write the card would carry out):
    /// the tag's answer and the log's fate, or nil when neither fault fires (the frame then
    /// goes to the tag as usual). Every write counts.
    mutating func writeFault(
        _ frame: [UInt8], at index: Int
    ) -> (response: SimulatedType2Response, fate: LogEntry.Fate)? {
        switch tags[index] {
        case .type2(var tag):
            guard tag.state == .active, tag.writtenPage(by: frame) != nil, let fate = nextWriteFault() else {
                return nil
            }
            let response =
                fate == .writeRefused ? tag.refuse(frame, nak: faults.nakCode) : tag.acknowledgeWithoutStoring(frame)
            tags[index] = .type2(tag)
            return (response, fate)
        case .classic(var card):
            guard card.writtenBlock(by: frame) != nil, let fate = nextWriteFault() else { return nil }
            let response =
                fate == .writeRefused ? card.refuse(frame, nak: faults.nakCode) : card.acknowledgeWithoutStoring(frame)
            tags[index] = .classic(card)
            return (response, fate)
        case .type4:
            return nil
        }
    }

    /// Applies ``Faults/nakWrite`` or ``Faults/loseWrite`` to `apdu` when it is an UPDATE BINARY
    /// to the ACTIVE Type 4 tag at `index`, as ``writeFault(_:at:)`` does for Type 2 frames.
    mutating func updateFault(_ apdu: [UInt8], at index: Int) -> (response: [UInt8], fate: LogEntry.Fate)? {
        guard case .type4(var tag) = tags[index], tag.state == .active,
            SimulatedType4Command(apdu: apdu) == .updateBinary, let fate = nextWriteFault()
        else { return nil }
        let response =
            fate == .writeRefused
            ? tag.refuse(apdu, status: faults.nakStatusWord) : tag.acknowledgeWithoutStoring(apdu)
        tags[index] = .type4(tag)
        return (response, fate)
    }

    /// Counts one write and says which write fault, if any, fires on it: ``LogEntry/Fate/writeRefused``
    /// for ``Faults/nakWrite``, ``LogEntry/Fate/writeNotStored`` for ``Faults/loseWrite``.
    private mutating func nextWriteFault() -> LogEntry.Fate? {
        writesSinceArmed += 1
        if Self.fires(faults.nakWrite, at: writesSinceArmed) { return .writeRefused }
        if Self.fires(faults.loseWrite, at: writesSinceArmed) { return .writeNotStored }
        return nil
    }

    /// Whether a fault set for the `limit`-th write fires at write number `count`.
    private static func fires(_ limit: Int?, at count: Int) -> Bool {
        guard let limit, limit > 0 else { return false }
        return count == limit
    }
}

extension SimulatedField {
    /// How many frames of `command` the tags received, summed over every tag (in the field and
    /// removed by a fault).
    public func count(of command: SimulatedType2Command) -> Int { commandCounts[command] ?? 0 }

    /// How many APDUs of `command` the Type 4 tags received, summed over every tag (in the
    /// field and removed by a fault).
    public func count(of command: SimulatedType4Command) -> Int { type4CommandCounts[command] ?? 0 }

    /// How many commands of `command`, frame or APDU, the tags received.
    public func count(of command: Command) -> Int {
        switch command {
        case .type2(let kind): count(of: kind)
        case .type4(let kind): count(of: kind)
        case .classic(let kind): classicCommandCounts[kind] ?? 0
        }
    }

    /// The frames of each kind the MIFARE Classic cards received, summed over every card.
    public var classicCommandCounts: [SimulatedClassicCommand: Int] {
        var counts: [SimulatedClassicCommand: Int] = [:]
        for tag in tags + removedTags {
            for (command, count) in tag.classicCommandCounts { counts[command, default: 0] += count }
        }
        return counts
    }

    /// The Type 2 frames of each kind the tags received, summed over every tag. Frames sent
    /// after the tags left, lost in flight without reaching a tag, or sent to a Type 4 tag
    /// (which ignores them) are not among them (see ``log``).
    public var commandCounts: [SimulatedType2Command: Int] {
        var counts: [SimulatedType2Command: Int] = [:]
        for tag in tags + removedTags {
            for (command, count) in tag.type2CommandCounts { counts[command, default: 0] += count }
        }
        return counts
    }

    /// The APDUs of each kind the Type 4 tags received, summed over every tag. APDUs sent after
    /// the tags left, lost in flight without reaching a tag, or sent to a Type 2 tag (which
    /// has no ISO-DEP layer) are not among them (see ``log``).
    public var type4CommandCounts: [SimulatedType4Command: Int] {
        var counts: [SimulatedType4Command: Int] = [:]
        for tag in tags + removedTags {
            for (command, count) in tag.type4CommandCounts { counts[command, default: 0] += count }
        }
        return counts
    }

    /// Every kind of command the tags received, frames and APDUs, with its count.
    public var allCommandCounts: [Command: Int] {
        var counts: [Command: Int] = [:]
        for (command, count) in commandCounts { counts[.type2(command)] = count }
        for (command, count) in type4CommandCounts { counts[.type4(command)] = count }
        return counts
    }

    /// The total number of commands, frames and APDUs, the tags received.
    public var totalCommandCount: Int {
        commandCounts.values.reduce(0, +) + type4CommandCounts.values.reduce(0, +)
    }

    /// Forgets every tag's command counts and the log.
    public mutating func resetCommandCounts() {
        log = []
        for index in tags.indices { tags[index].resetCommandCounts() }
        for index in removedTags.indices { removedTags[index].resetCommandCounts() }
    }
}

/// What a reader receives from a ``SimulatedField`` for one command.
///
/// `Response` is the tag kind's answer: ``SimulatedType2Response`` for Type 2 frames, the
/// response APDU (`[UInt8]`, data then SW1 SW2) for APDUs to a Type 4 tag.
public enum SimulatedFieldReply<Response: Sendable & Hashable>: Sendable, Hashable {
    /// The answer arrived intact.
    case answer(Response)
    /// The answer arrived with a byte flipped in transit: the reader's CRC_A check fails
    /// (ISO/IEC 14443-3 6.2.4), so it reports a transmission error. The value is the answer as
    /// received (for data, the first byte inverted; a 4-bit ACK or NAK as sent; for a response
    /// APDU, its first byte inverted).
    case corrupted(Response)
    /// No answer: no tag is selected, the selected tag is not ACTIVE, or the tags left the field.
    case silent

    /// The answer, when it arrived intact.
    public var answer: Response? {
        if case .answer(let response) = self { return response }
        return nil
    }
}

extension SimulatedField {
    /// Sends one command APDU to the selected tag over ISO-DEP and returns the response APDU
    /// (data, then SW1 SW2) the reader receives, with the armed faults applied.
    ///
    /// APDUs share the fault counters with Type 2 frames: every call counts towards
    /// ``Faults/removeAfterCommands``, and the N-th command, frame or APDU, ends as
    /// ``Faults/inFlight`` says and gets no answer, as does every later one until
    /// ``putBack()``; an UPDATE BINARY reaching an ACTIVE tag counts towards
    /// ``Faults/nakWrite`` and ``Faults/loseWrite``; every answer counts towards
    /// ``Faults/corruptEveryNthResponse``.
    ///
    /// In flight, an APDU completes (the tag carries it out: an UPDATE BINARY is written
    /// whole), does nothing (it never reaches the tag and is not counted), or, for
    /// ``InFlightOutcome/tearsPage``, tears an UPDATE BINARY: the first half of its data bytes
    /// is written (see ``InFlightOutcome/tearsPage``); a torn APDU other than UPDATE BINARY
    /// does nothing.
    ///
    /// A corrupted answer (``SimulatedFieldReply/corrupted(_:)``) is the response APDU with its
    /// first byte inverted: the first data byte, or SW1 for a response without data. The reader
    /// detects it by the CRC_A of the ISO-DEP block that carried it (ISO/IEC 14443-4, 7.1) and
    /// reports a transmission error; the tag has carried the command out all the same.
    ///
    /// A Type 2 tag has no ISO-DEP layer: selected, it does not answer APDUs
    /// (``SimulatedFieldReply/silent``) and counts none.
    public mutating func transceiveAPDU(_ apdu: [UInt8]) -> SimulatedFieldReply<[UInt8]> {
        let index = selectedIndex
        let uid = index.map { tags[$0].uid }
        let command = Command.type4(SimulatedType4Command(apdu: apdu))
        guard
            let index = admit(command, apdu, to: index, uid: uid, inFlight: { $0.carryOutAPDUInFlight(apdu, at: $1) })
        else { return .silent }
        var fate = LogEntry.Fate.answered
        let answer: [UInt8]?
        if let faulted = updateFault(apdu, at: index) {
            answer = faulted.response
            fate = faulted.fate
        } else {
            answer = tags[index].transceiveAPDU(apdu)
        }
        guard let response = answer else {
            record(uid, command, apdu, .unanswered)
            return .silent
        }
        responsesSinceArmed += 1
        if let every = faults.corruptEveryNthResponse, every > 0, responsesSinceArmed % every == 0 {
            record(uid, command, apdu, .corrupted)
            return .corrupted(Self.corrupting(response))
        }
        record(uid, command, apdu, fate)
        return .answer(response)
    }

    /// How many of an UPDATE BINARY's `dataCount` data bytes a tear writes: half, rounded down
    /// (2 of 4, 3 of 7, none of 1).
    static func tornUpdateDataCount(of dataCount: Int) -> Int {
        max(0, dataCount) / 2
    }

    /// The response APDU with its first byte inverted.
    static func corrupting(_ response: [UInt8]) -> [UInt8] {
        guard !response.isEmpty else { return response }
        var bytes = response
        bytes[0] ^= 0xFF
        return bytes
    }

    /// Applies ``Faults/inFlight`` to the APDU in flight for the tag at `index`.
    ///
    /// ``InFlightOutcome/tearsPage`` on an UPDATE BINARY to a Type 4 tag calls
    /// ``SimulatedType4Tag/applyPartialUpdate(_:keepingBytes:)`` keeping half its data bytes,
    /// rounded down: when the tag would accept the command,
    /// that many of the first data bytes are written at its offset, in the NDEF file or (when
    /// writable) the CC file, and every other byte of the file keeps its old value; a command
    /// the tag would refuse writes nothing. The tag receives and counts the APDU either way.
    private mutating func carryOutAPDUInFlight(_ apdu: [UInt8], at index: Int) {
        switch faults.inFlight {
        case .doesNothing: return
        case .completes: _ = tags[index].transceiveAPDU(apdu)
        case .tearsPage:
            guard case .type4(var tag) = tags[index], let count = tag.updateDataCount(of: apdu) else { return }
            tag.applyPartialUpdate(apdu, keepingBytes: Self.tornUpdateDataCount(of: count))
            tags[index] = .type4(tag)
        }
    }
}
