import HexText
import NDEF

/// One write in a plan: which bytes go where, and why.
///
/// For Type 2 tags `address` is a page number and `data` four bytes (WRITE, T2T 1.0 5.2); for
/// MIFARE Classic cards `address` is a block number and `data` sixteen bytes (WRITE, MF1S50yyX
/// 9.4.2); for Type 4 tags `address` is an offset in the file named by `file` and `data` at
/// most MLc bytes (UPDATE BINARY, T4T 3.0 5.4.4). The `reason` is a short sentence for `--dry-run`.
///
/// A step that carries a password or a password acknowledge (NTAG21x PWD and PACK pages,
/// datasheet NTAG213/215/216 8.8) is marked ``isSecret``: ``description`` shows its data as
/// `**`, and no plan puts a secret in a `reason`. The bytes themselves stay in ``data`` (the
/// command needs them) and in the `Codable` encoding, which is for executing a plan, not for
/// showing it.
public struct PlanStep: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The Type 4 file the step writes to (for example `0xE104`); nil for Type 2 page writes.
    public var file: UInt16?
    /// The page (Type 2) or byte offset in the file (Type 4).
    public var address: Int
    /// The bytes to write.
    public var data: [UInt8]
    /// Why this step is there, in words. Never holds a secret.
    public var reason: String
    /// Whether `data` is a secret (a password): descriptions show it as `**` per byte.
    public var isSecret: Bool

    /// Creates a step.
    public init(file: UInt16? = nil, address: Int, data: [UInt8], reason: String, isSecret: Bool = false) {
        self.file = file
        self.address = address
        self.data = data
        self.reason = reason
        self.isSecret = isSecret
    }

    private enum CodingKeys: String, CodingKey {
        case file, address, data, reason, isSecret
    }

    /// Decodes a step; a missing `isSecret` key means false.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.file = try container.decodeIfPresent(UInt16.self, forKey: .file)
        self.address = try container.decode(Int.self, forKey: .address)
        self.data = try container.decode([UInt8].self, forKey: .data)
        self.reason = try container.decode(String.self, forKey: .reason)
        self.isSecret = try container.decodeIfPresent(Bool.self, forKey: .isSecret) ?? false
    }

    /// The data as upper-case hex pairs separated by spaces, as every description of tag memory
    /// writes bytes (`E1 10 3E 0F`), or `**` per byte for a secret step.
    public var displayedData: String {
        isSecret
            ? Array(repeating: "**", count: data.count).joined(separator: " ")
            : Hex.encode(data, uppercase: true, separator: " ")
    }

    public var description: String {
        if let file {
            return "file \(Hex.number(file)) offset \(address): \(displayedData)  (\(reason))"
        }
        let unit = data.count == MifareClassicSector.blockSize ? "block" : "page"
        return "\(unit) \(address): \(displayedData)  (\(reason))"
    }
}

/// An ordered list of writes that takes a tag from one state to another.
public struct TagWritePlan: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The writes, in the order they must be sent.
    public var steps: [PlanStep]
    /// Whether a step writes a password-protected page: the session must authenticate
    /// (PWD_AUTH on NTAG21x and MIFARE Ultralight EV1) before the first step, or the tag
    /// refuses the write. Planners set it from the protection the tag image shows.
    public var requiresAuthentication: Bool

    /// Creates a plan.
    public init(steps: [PlanStep], requiresAuthentication: Bool = false) {
        self.steps = steps
        self.requiresAuthentication = requiresAuthentication
    }

    private enum CodingKeys: String, CodingKey {
        case steps, requiresAuthentication
    }

    /// Decodes a plan; a missing `requiresAuthentication` key means false.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.steps = try container.decode([PlanStep].self, forKey: .steps)
        self.requiresAuthentication =
            try container.decodeIfPresent(Bool.self, forKey: .requiresAuthentication) ?? false
    }

    /// One line per step (secrets shown as `**`), after a line saying that authentication
    /// comes first when it does.
    public var description: String {
        let lines = steps.map(\.description)
        return (requiresAuthentication ? ["authenticate first (password-protected pages)"] + lines : lines)
            .joined(separator: "\n")
    }
}

extension TagWritePlan {
    /// The bytes a plan writes for `message`: its encoding, nothing for a message without
    /// records (an empty NDEF TLV).
    ///
    /// - Throws: ``TagMemoryError/Code/malformedMessage`` when the message cannot be encoded.
    static func messageBytes(of message: NFCNDEFMessage) throws(TagMemoryError) -> [UInt8] {
        guard !message.records.isEmpty else { return [] }
        do {
            return try message.encoded()
        } catch {
            throw TagMemoryError(.malformedMessage, "the message cannot be encoded: \(error.reason)")
        }
    }
}
