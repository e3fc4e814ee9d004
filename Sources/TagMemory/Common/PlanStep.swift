/// One write in a plan: which bytes go where, and why.
///
/// For Type 2 tags `address` is a page number and `data` four bytes (WRITE, T2T 1.0 5.2); for
/// Type 4 tags `address` is an offset in the file named by `file` and `data` at most MLc
/// bytes (UPDATE BINARY, T4T 3.0 5.4.4). The `reason` is a short sentence for `--dry-run`.
public struct PlanStep: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The Type 4 file the step writes to (for example `0xE104`); nil for Type 2 page writes.
    public var file: UInt16?
    /// The page (Type 2) or byte offset in the file (Type 4).
    public var address: Int
    /// The bytes to write.
    public var data: [UInt8]
    /// Why this step is there, in words.
    public var reason: String

    /// Creates a step.
    public init(file: UInt16? = nil, address: Int, data: [UInt8], reason: String) {
        self.file = file
        self.address = address
        self.data = data
        self.reason = reason
    }

    public var description: String {
        let hex = data.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined(separator: " ")
        if let file {
            return "file \(String(file, radix: 16, uppercase: true)) offset \(address): \(hex)  (\(reason))"
        }
        return "page \(address): \(hex)  (\(reason))"
    }
}

/// An ordered list of writes that takes a tag from one state to another.
public struct TagWritePlan: Sendable, Hashable, Codable {
    /// The writes, in the order they must be sent.
    public var steps: [PlanStep]

    /// Creates a plan.
    public init(steps: [PlanStep]) {
        self.steps = steps
    }
}
