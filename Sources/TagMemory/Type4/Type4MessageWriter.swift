/// Turns the target content of a Type 4 NDEF file into UPDATE BINARY steps (T4T 3.0, 5.5.7);
/// the public entry point is `Type4CapabilityContainer.writePlan(messageBytes:...)`.
struct Type4MessageWriter {
    let file: UInt16
    let fieldSize: Int
    /// The length field followed by the message: the bytes that must end up at offset 0.
    let target: [UInt8]
    /// The file as the caller read it, from offset 0, if given.
    let current: [UInt8]?
    /// Command data bytes per UPDATE BINARY.
    let budget: Int
    let supportsODO: Bool
    let lengthName: String

    init(capabilityContainer cc: Type4CapabilityContainer, target: [UInt8], current: [UInt8]?, budget: Int) {
        self.file = cc.ndefFile.fileIdentifier
        self.fieldSize = cc.messageLengthFieldSize
        self.target = target
        self.current = current
        self.budget = budget
        self.supportsODO = cc.supportsOffsetDataObjects
        self.lengthName = fieldSize == 4 ? "ENLEN" : "NLEN"
    }

    var messageLength: Int { target.count - fieldSize }

    /// Whether the current image proves the byte at `offset` already holds the target value.
    func isProvenEqual(_ offset: Int) -> Bool {
        guard let current, offset < current.count else { return false }
        return current[offset] == target[offset]
    }

    /// The length field value the current image proves, if it covers the field.
    var currentLength: Int? {
        guard let current, current.count >= fieldSize else { return nil }
        return current.prefix(fieldSize).reduce(0) { $0 << 8 | Int($1) }
    }

    mutating func plan(singleUpdateWhenPossible: Bool) throws(TagMemoryError) -> TagWritePlan {
        guard budget >= fieldSize else {
            throw TagMemoryError(
                .unsupportedChip,
                "\(budget) bytes per UPDATE BINARY cannot write the \(fieldSize)-byte \(lengthName) in one command, "
                    + "which a tearing-safe update needs")
        }
        if target.indices.allSatisfy(isProvenEqual) { return TagWritePlan(steps: []) }
        let total = target.count
        if messageLength == 0 {
            return TagWritePlan(steps: [lengthStep(0, "\(lengthName) = 0: the file holds no message")])
        }
        if singleUpdateWhenPossible, total <= budget, Type4Addressing.isPlain(offset: 0, length: total) {
            let reason =
                "\(lengthName) = \(messageLength) and the whole message in one UPDATE BINARY (\(total) of \(budget) "
                + "bytes): no intermediate state exists if the tag commits the command whole (T4T 3.0, 5.5.7)"
            return TagWritePlan(steps: [PlanStep(file: file, address: 0, data: target, reason: reason)])
        }
        let data = try dataSteps()
        var steps: [PlanStep] = []
        if !data.isEmpty, currentLength != 0 {
            steps.append(
                lengthStep(
                    0,
                    "\(lengthName) = 0 first: until the last step a torn write leaves an empty file, "
                        + "never a partial message (T4T 3.0, 5.5.7)"))
        }
        steps += data
        if !data.isEmpty || currentLength != messageLength {
            let reason =
                data.isEmpty
                ? "\(lengthName) = \(messageLength): the message bytes are already in the file (shown by the "
                    + "current image)"
                : "\(lengthName) = \(messageLength) last: the message becomes visible only once complete "
                    + "(T4T 3.0, 5.5.7)"
            steps.append(lengthStep(messageLength, reason))
        }
        return TagWritePlan(steps: steps)
    }

    /// An UPDATE BINARY of the length field at offset 0.
    func lengthStep(_ length: Int, _ reason: String) -> PlanStep {
        PlanStep(file: file, address: 0, data: Type4NDEFFile.lengthField(length, size: fieldSize), reason: reason)
    }

    /// The message pieces that differ from the current image (all of them without one).
    func dataSteps() throws(TagMemoryError) -> [PlanStep] {
        let end = target.count
        let odoBudget = Type4Addressing.largestODOData(budget: budget, overhead: Type4Addressing.updateODOOverhead)
        if end > Type4Addressing.plainLimit {
            guard supportsODO else {
                throw TagMemoryError(
                    .unsupportedChip, at: Type4Addressing.plainLimit,
                    "a version 1 or 2 tag cannot be written past offset 7FFF (T4T 3.0, 5.5.7)")
            }
            guard odoBudget > 0, end - 1 <= Type4Addressing.largestODOOffset else {
                throw TagMemoryError(
                    .unsupportedChip, at: end, "UPDATE BINARY D7 cannot reach the end of this \(end)-byte file")
            }
        }
        var steps: [PlanStep] = []
        var offset = fieldSize
        while offset < end {
            if isProvenEqual(offset) {
                offset += 1
                continue
            }
            let plain = offset < Type4Addressing.plainLimit
            let limit = plain ? Swift.min(budget, Type4Addressing.plainLimit - offset) : odoBudget
            var pieceEnd = Swift.min(end, offset + limit)
            while pieceEnd > offset + 1, isProvenEqual(pieceEnd - 1) { pieceEnd -= 1 }
            let first = offset - fieldSize
            let last = pieceEnd - 1 - fieldSize
            let form = plain ? "" : " (UPDATE BINARY D7 with an offset data object)"
            steps.append(
                PlanStep(
                    file: file, address: offset, data: Array(target[offset..<pieceEnd]),
                    reason: "message bytes \(first)-\(last) of \(messageLength)\(form)"))
            offset = pieceEnd
        }
        return steps
    }
}
