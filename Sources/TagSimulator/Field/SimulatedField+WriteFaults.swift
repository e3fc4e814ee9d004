extension SimulatedField {
    /// Applies ``Faults/nakWrite`` or ``Faults/loseWrite`` to `frame` when it is a write to the
    /// ACTIVE Type 2 tag at `index`: the tag's answer and the log's fate, or nil when neither
    /// fault fires (the frame then goes to the tag as usual). Every write counts.
    mutating func writeFault(
        _ frame: [UInt8], at index: Int
    ) -> (response: SimulatedType2Response, fate: LogEntry.Fate)? {
        guard case .type2(var tag) = tags[index], tag.state == .active, tag.writtenPage(by: frame) != nil else {
            return nil
        }
        writesSinceArmed += 1
        let result: (SimulatedType2Response, LogEntry.Fate)
        if Self.fires(faults.nakWrite, at: writesSinceArmed) {
            result = (tag.refuse(frame, nak: faults.nakCode), .writeRefused)
        } else if Self.fires(faults.loseWrite, at: writesSinceArmed) {
            result = (tag.acknowledgeWithoutStoring(frame), .writeNotStored)
        } else {
            return nil
        }
        tags[index] = .type2(tag)
        return result
    }

    /// Applies ``Faults/nakWrite`` or ``Faults/loseWrite`` to `apdu` when it is an UPDATE BINARY
    /// to the ACTIVE Type 4 tag at `index`, as ``writeFault(_:at:)`` does for Type 2 frames.
    mutating func updateFault(_ apdu: [UInt8], at index: Int) -> (response: [UInt8], fate: LogEntry.Fate)? {
        guard case .type4(var tag) = tags[index], tag.state == .active,
            SimulatedType4Command(apdu: apdu) == .updateBinary
        else { return nil }
        writesSinceArmed += 1
        let result: ([UInt8], LogEntry.Fate)
        if Self.fires(faults.nakWrite, at: writesSinceArmed) {
            result = (tag.refuse(apdu, status: faults.nakStatusWord), .writeRefused)
        } else if Self.fires(faults.loseWrite, at: writesSinceArmed) {
            result = (tag.acknowledgeWithoutStoring(apdu), .writeNotStored)
        } else {
            return nil
        }
        tags[index] = .type4(tag)
        return result
    }

    /// Whether a fault set for the `limit`-th write fires at write number `count`.
    private static func fires(_ limit: Int?, at count: Int) -> Bool {
        guard let limit, limit > 0 else { return false }
        return count == limit
    }
}
