/// A number of commands and what it is made of, for a theoretical minimum or a reference count:
/// each part is a count of one kind of command with the reason it is needed.
struct CommandBudget: Sendable {
    /// Some commands of one kind, and why.
    struct Part: Sendable {
        var count: Int
        var command: String
        var reason: String
    }

    /// The parts, in the order the commands are sent.
    var parts: [Part]
    /// What the budget assumes or leaves out, for the notes under the table.
    var note: String?

    /// The number of commands.
    var total: Int { parts.reduce(0) { $0 + $1.count } }

    /// The parts as `1 GET_VERSION (identification) + 2 FAST_READ (...) + ...`, parts of no command left out.
    var derivation: String {
        parts.filter { $0.count > 0 }.map { "\($0.count) \($0.command) (\($0.reason))" }.joined(separator: " + ")
    }
}

/// Arithmetic on Type 2 pages for the budgets: which pages a byte range covers and how many read
/// commands a set of pages takes.
enum PageArithmetic {
    /// The page size of a Type 2 tag (NFC Forum Type 2 Tag 1.1, 2.1).
    static let pageSize = 4
    /// The pages one READ returns (T2T 1.1, 5.1: 16 bytes).
    static let pagesPerRead = 4
    /// The pages one FAST_READ returns through a reader with 252-byte frames (NTAG213/215/216
    /// 10.3: the answer is (end - start + 1) * 4 bytes and must fit the frame).
    static let pagesPerFastRead = 252 / pageSize

    /// The page holding byte `address`.
    static func page(ofByte address: Int) -> Int { address / pageSize }

    /// The fewest read commands that return every page of `pages`: sorted, each command starts
    /// at the first page still missing and returns `window` pages (greedy covering of points on
    /// a line by windows of fixed length is optimal).
    static func readCommands(_ pages: [Int], window: Int) -> Int {
        var commands = 0
        var coveredUpTo = Int.min
        for page in Set(pages).sorted() where page > coveredUpTo {
            commands += 1
            coveredUpTo = page + window - 1
        }
        return commands
    }

    /// The size of an NDEF Message TLV's T and L fields for a message of `length` bytes (T2T 1.1,
    /// 2.3: one length byte up to FEh, else FFh and two bytes).
    static func tlvHeaderSize(messageLength length: Int) -> Int { length < 0xFF ? 2 : 4 }
}
