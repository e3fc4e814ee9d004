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
