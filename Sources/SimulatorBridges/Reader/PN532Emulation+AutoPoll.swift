import TagSimulator

extension PN532Emulation {
    /// InAutoPoll (UM0701 7.3.13; libnfc's `nfc_initiator_poll_target` on a PN532): PollNr
    /// (01-FE, FF endless), Period (01-0F, units of 150 ms) and 1 to 15 target types. The
    /// 106 kbit/s Type A types are simulated: 00 (generic passive), 10 (MIFARE, which here is
    /// any tag without ISO-DEP) and 20 (ISO/IEC 14443-4A, with its ATS); other types find
    /// nothing. The types are tried in order and the first that finds tags answers, with up
    /// to two targets (as InListPassiveTarget with MaxTg 2, the first one selected): NbTg,
    /// then for each the type found (10 or 20 for a generic search), the length of its target
    /// data and the data of ``targetData(_:number:withATS:)``.
    ///
    /// Simplification: the chip polls once and answers at once; a field without a tag of
    /// those types gives NbTg 0 instead of polling PollNr times for Period (or, with PollNr
    /// FF, until a tag comes).
    mutating func autoPoll(
        _ arguments: [UInt8], _ field: inout SimulatedField, _ activeUID: inout [UInt8]?
    ) -> Result {
        guard arguments.count >= 3, arguments.count <= 17, arguments[0] != 0, (1...0x0F).contains(arguments[1])
        else { return .notSupported }
        prepareTypeA(&field)
        for type in arguments.dropFirst(2) {
            let waiting = field.tags.filter { $0.state == .idle && Self.autoPollType(type, matches: $0) }
            guard !waiting.isEmpty else { continue }
            let listed = waiting.prefix(2).flatMap { field.poll(.reqa, limit: 1, uid: $0.uid) }
            guard activate(listed, &field, &activeUID) else { break }
            var frame: [UInt8] = [0xD5, 0x61, UInt8(truncatingIfNeeded: listed.count)]
            for (index, tag) in listed.enumerated() {
                let isoDEP = tag.ats != nil
                let found: UInt8 = type != 0x00 ? type : (isoDEP ? 0x20 : 0x10)
                let data = Self.targetData(tag, number: index + 1, withATS: found == 0x20)
                frame += [found, UInt8(truncatingIfNeeded: data.count)] + data
            }
            return .response(frame)
        }
        _ = activate([], &field, &activeUID)
        return .response([0xD5, 0x61, 0x00])
    }

    /// Whether a tag is found by the InAutoPoll target type `type`.
    static func autoPollType(_ type: UInt8, matches tag: SimulatedTag) -> Bool {
        switch type {
        case 0x00: true
        case 0x10: tag.ats == nil
        case 0x20: tag.ats != nil
        default: false
        }
    }
}
