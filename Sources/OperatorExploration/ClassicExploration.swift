import HexText
import NDEF
import TagMemory

/// Random sequences of MIFARE Classic commands on one simulated 1K card kept in a `.mfd` file,
/// as a careless operator runs them: `format` with a dry run's code (now and then a stale one)
/// and one of three keys files (two key Bs, and a file with the second key B that lists the first
/// as a candidate), reruns after a cut with the same or another keys file, writes of messages of
/// random lengths, reads, dumps, and `lock`. Formats, writes and locks are cut at a random command
/// (tear, none, complete) or lose a write; after every command the invariants are checked against
/// the card file.
///
/// Invariants, after every command:
/// 1. No sector has keys nobody knows: every key A is the transport key, the MAD key A (sector 0)
///    or the NFC Forum key A (the others); every key B is the transport key or the key B of a
///    keys file the operator gave to a command that ended 0 or 80; every sector's access bits are
///    consistent (the card never blocks a sector).
/// 2. A format that ends 0 leaves the NFC layout with its keys file's key B in every sector, an
///    empty message, read/write; on a card NDEF formatted already it only empties the message,
///    every trailer as it was.
/// 3. A write that ends 0 leaves its message; until the next write, erase, format or lock, the
///    card keeps the message the tool last said it holds.
/// 4. A lock that ends 0 leaves the card read-only with its message; nothing changes the NDEF
///    data afterwards.
/// 5. A dry run, a read, a dump, a refusal (64, 65, 66, 69, 76, 77, 78, 79) and a command the
///    card left before it changed anything (75) leave the card file as it was.
/// 6. Every command ends with a status its help documents.
struct ClassicExploration: OperatorSequence {
    /// The key Bs of the keys files c0.txt and c1.txt; c2.txt has c1's key B and c0's as a
    /// candidate.
    static let keyBs: [[UInt8]] = [[0x0A, 0x1B, 0x2C, 0x3D, 0x4E, 0x5F], [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5]]
    static let transportKey = [UInt8](repeating: 0xFF, count: 6)
    static let madKeyA: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5]
    static let ndefKeyA: [UInt8] = [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7]

    let runner: CommandRunner
    var random: ExplorationRandom
    /// The key Bs the operator has handed to commands that changed or may have changed keys.
    var usedKeyBs: Set<[UInt8]> = [transportKey]
    /// Codes from dry runs, by command and keys file.
    var codes: [String: String] = [:]
    /// The message the tool last said the card holds (nil: none known, or after a cut write).
    var message: [UInt8]?
    /// Whether a lock ended 0.
    var locked = false
    var history: [String] = []
    var cardPath: String { runner.folder + "/card.mfd" }
    var reader: String { "sim:classic1k?file=\(cardPath)" }

    init(runner: CommandRunner, seed: UInt64) throws {
        self.runner = runner
        random = ExplorationRandom(seed: seed)
        let first = Hex.encode(Self.keyBs[0], uppercase: true)
        let second = Hex.encode(Self.keyBs[1], uppercase: true)
        try Array("key-b \(first)\n".utf8).write(to: runner.folder + "/c0.txt")
        try Array("key-b \(second)\n".utf8).write(to: runner.folder + "/c1.txt")
        try Array("key-b \(second)\n\(first)\n".utf8).write(to: runner.folder + "/c2.txt")
    }

    mutating func explore(steps: Int) throws -> Int {
        let factory = try runner.run(["dump", "-o", cardPath, "--reader", "sim:classic1k", "--wait", "0"])
        guard factory.status == 0 else { throw ExplorationFailure("the factory card failed: \(factory.output)") }
        var checked = 0
        for _ in 0..<steps {
            let before = try card()
            switch random.below(12) {
            case 0..<2: checked += try dryRun(random.below(2) == 0 ? "format" : "lock", before: before)
            case 2..<6: checked += try change(random.below(5) == 0 ? "lock" : "format", before: before)
            case 6..<9: checked += try write(before: before)
            case 9..<11: checked += try read(before: before)
            default: checked += try dump(before: before)
            }
        }
        return checked
    }

    // MARK: - Commands

    private mutating func dryRun(_ command: String, file chosen: String? = nil, before: [UInt8]) throws -> Int {
        let file = chosen ?? "c\(random.below(3)).txt"
        let arguments = [command, "--keys-file", file, "--dry-run"]
        let result = try run(arguments, faults: "")
        try checkStatus(result, allowed: [0, 64, 65, 66, 69, 76, 77, 78], arguments)
        if let line = result.output.split(separator: "\n").first(where: {
            $0.contains(" code ") || $0.contains("code:")
        }),
            let range = line.firstRange(of: /[0-9]{3}-[0-9]{3}/)
        {
            codes[command + file] = String(line[range])
        }
        try unchanged(before, result, "a dry run")
        return try invariants(before: before, output: result.output) + 2
    }

    /// A format or a lock with a keys file and a code, perhaps cut.
    private mutating func change(_ command: String, before: [UInt8]) throws -> Int {
        let file = "c\(random.below(3)).txt"
        // The operator runs the dry run for the code, or reuses one (now and then a stale one).
        if codes[command + file] == nil || random.below(3) == 0 {
            _ = try dryRun(command, file: file, before: before)
        }
        var code = codes[command + file] ?? "000-000"
        if random.below(8) == 0, let stale = codes.values.sorted().first { code = stale }
        let faults = nextFaults(limit: command == "format" ? 220 : 60)
        let arguments = [command, "--keys-file", file, "--confirm", code]
        let result = try run(arguments, faults: faults)
        // The file's key B may be on the card now, if the command may have written.
        if [0, 80].contains(result.status) { usedKeyBs.insert(Self.keyBs[file == "c0.txt" ? 0 : 1]) }
        try checkStatus(result, allowed: [0, 64, 65, 66, 69, 75, 76, 77, 78, 79, 80], arguments)
        var checked = 1
        let memory = MifareClassicMemory(bytes: try card(), type: .classic1K)
        switch result.status {
        case 0 where command == "format":
            checked += 2
            let keyB = Self.keyBs[file == "c0.txt" ? 0 : 1]
            let wasFormatted = MifareClassicMemory(bytes: before, type: .classic1K).ndefStatus.status != .notSupported
            // A card NDEF formatted already is only emptied: its keys stay (the tool says so).
            let keysAsExpected =
                wasFormatted
                ? (0..<16).allSatisfy { trailer(of: $0, in: memory.bytes) == trailer(of: $0, in: before) }
                : (0..<16).allSatisfy { Array(trailer(of: $0, in: memory.bytes).suffix(6)) == keyB }
            guard keysAsExpected, memory.ndefStatus.status == .readWrite, memory.ndefMessageBytes == [] else {
                throw fail(
                    "invariant 2: a format ended 0 without its layout and key B, or an empty message", before, result)
            }
            message = []
        case 0:
            checked += 1
            guard memory.ndefStatus.status == .readOnly, message == nil || memory.ndefMessageBytes == message else {
                throw fail("invariant 4: a lock ended 0 and the card is not read-only with its message", before, result)
            }
            locked = true
        case 80:
            // Part way: the tool said what to run; the message is whatever the card holds now.
            if command == "format" { message = nil }
        default:
            try unchanged(before, result, "a refusal")
        }
        return checked + (try invariants(before: before, output: result.output))
    }

    private mutating func write(before: [UInt8]) throws -> Int {
        let length = 1 + random.below(random.below(4) == 0 ? 700 : 120)
        let text = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + ($0 * 7 + length) % 26))) })
        let faults = nextFaults(limit: 60)
        let arguments = ["write", "text", text]
        let result = try run(arguments, faults: faults)
        try checkStatus(result, allowed: [0, 64, 65, 66, 69, 75, 76, 77, 78, 80], arguments)
        let memory = MifareClassicMemory(bytes: try card(), type: .classic1K)
        switch result.status {
        case 0:
            // `write text` writes a Text record in English, UTF-8 (NFC Forum Text RTD 3.2.1).
            let record = NFCNDEFPayload(
                format: .nfcWellKnown, type: "T", payload: [0x02] + Array("en".utf8) + Array(text.utf8))
            let expected = try NFCNDEFMessage(records: [record]).encoded()
            guard !locked, memory.ndefMessageBytes == expected else {
                throw fail("invariant 3: a write ended 0 without its message (or on a locked card)", before, result)
            }
            message = expected
        case 80: message = nil
        default: try unchanged(before, result, "a refused write")
        }
        return 1 + (try invariants(before: before, output: result.output))
    }

    private mutating func read(before: [UInt8]) throws -> Int {
        let result = try run(["read", "--raw", "-o", runner.folder + "/read.ndef"], faults: "")
        try checkStatus(result, allowed: [0, 65, 66, 69, 76], ["read"])
        try unchanged(before, result, "a read")
        if result.status == 0, let message, !message.isEmpty,
            FileBytes.read(runner.folder + "/read.ndef") != message
        {
            throw fail("invariant 3: the card reads another message than the tool last said", before, result)
        }
        return 2 + (try invariants(before: before, output: result.output))
    }

    private mutating func dump(before: [UInt8]) throws -> Int {
        let file = "c\(random.below(3)).txt"
        let result = try run(["dump", "-o", runner.folder + "/backup.mfd", "--keys-file", file], faults: "")
        try checkStatus(result, allowed: [0, 78], ["dump"])
        try unchanged(before, result, "a dump")
        return 1 + (try invariants(before: before, output: result.output))
    }

    // MARK: - Invariants

    /// Invariants 1 and 4, on the card file.
    private func invariants(before: [UInt8], output: String) throws -> Int {
        let bytes = try card()
        for sector in 0..<16 {
            let trailer = trailer(of: sector, in: bytes)
            let keyA = Array(trailer.prefix(6))
            let publicKeyA = sector == 0 ? Self.madKeyA : Self.ndefKeyA
            guard keyA == Self.transportKey || keyA == publicKeyA,
                usedKeyBs.contains(Array(trailer.suffix(6))),
                MifareClassicAccessBits(byte6: trailer[6], byte7: trailer[7], byte8: trailer[8]).isConsistent
            else {
                throw fail(
                    "invariant 1: sector \(sector) has a key nobody knows or blocked access bits", before,
                    CommandRunner.Result(status: 0, output: output))
            }
        }
        if locked {
            let memory = MifareClassicMemory(bytes: bytes, type: .classic1K)
            guard memory.ndefStatus.status == .readOnly, message == nil || memory.ndefMessageBytes == message else {
                throw fail(
                    "invariant 4: a locked card changed", before, CommandRunner.Result(status: 0, output: output))
            }
        }
        return 2
    }

    private func checkStatus(_ result: CommandRunner.Result, allowed: Set<Int32>, _ arguments: [String]) throws {
        guard allowed.contains(result.status) else {
            throw ExplorationFailure(
                "invariant 6: \(arguments.joined(separator: " ")) ended \(result.status)\n\(result.output)\ncommands:\n"
                    + history.joined(separator: "\n"))
        }
    }

    private func unchanged(_ before: [UInt8], _ result: CommandRunner.Result, _ what: String) throws {
        guard try card() == before else { throw fail("invariant 5: \(what) changed the card", before, result) }
    }

    // MARK: - Helpers

    private mutating func run(_ arguments: [String], faults: String) throws -> CommandRunner.Result {
        let result = try runner.run(arguments + ["--reader", reader + faults, "--wait", "0"])
        history.append("\(arguments.joined(separator: " ")) [\(faults)] -> \(result.status)")
        return result
    }

    private func card() throws -> [UInt8] {
        guard let bytes = FileBytes.read(cardPath), bytes.count == 1024 else {
            throw ExplorationFailure("the card file is gone or not 1024 bytes")
        }
        return bytes
    }

    private func trailer(of sector: Int, in bytes: [UInt8]) -> [UInt8] {
        Array(bytes[(sector * 64 + 48)..<(sector * 64 + 64)])
    }

    private func fail(_ what: String, _ before: [UInt8], _ result: CommandRunner.Result) -> ExplorationFailure {
        ExplorationFailure(
            "\(what)\noutput:\n\(result.output)\ncommands:\n" + history.joined(separator: "\n"))
    }

    /// A random fault: none, a lost write, or the card leaving at a random command up to `limit`.
    private mutating func nextFaults(limit: Int) -> String {
        switch random.below(10) {
        case 0..<3: return ""
        case 3: return "&lose-write=\(1 + random.below(3))"
        default:
            let inFlight = ["tear", "none", "complete"][random.below(3)]
            return "&remove-after=\(1 + random.below(limit))&in-flight=\(inFlight)"
        }
    }
}
