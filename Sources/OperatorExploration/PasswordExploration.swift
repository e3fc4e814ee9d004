import HexText

/// Random sequences of `ndeftool password` and `write` commands on one simulated NTAG215, as an
/// operator runs them (a first password, changes with the same or other settings, reruns after
/// a cut, the wrong file now and then, removal), each command cut at a random tag command or
/// not; after every command the invariants are checked against the tag file.
///
/// The operator holds four password files and believes one of them protects the tag (or none);
/// after a command that says "repeat it", they repeat it, or do something else.
///
/// Invariants, after every command:
/// 1. The tool never disables the password: a tag whose failed PWD_AUTH count reaches AUTHLIM
///    after a command had not reached it before.
/// 2. A protected tag's password is in one of the operator's files.
/// 3. A refusal of the command line or its inputs (64, 65, 66) leaves the tag file byte for byte.
/// 4. A change that ends with 0 sets the password given, the settings given, and keeps every
///    setting it was not given (AUTH0, PROT, AUTHLIM, PACK) as the operator last asked for them.
/// 5. A removal that ends with 0 leaves no page protected.
struct PasswordExploration: OperatorSequence {
    /// The operator's password files: p0.txt ... p3.txt.
    static let passwords: [[UInt8]] = [
        [0xDE, 0xAD, 0xBE, 0xEF], [0xCA, 0xFE, 0xBA, 0xBE], [0x12, 0x34, 0x56, 0x78],
        [0x0B, 0xAD, 0xF0, 0x0D],
    ]

    let runner: CommandRunner
    var random: ExplorationRandom
    /// The file the operator believes protects the tag; nil for none.
    var believed: Int?
    /// The settings the operator last set with success; nil while the tag is not protected.
    var expected: TagState.Settings?
    /// The settings a change that was cut asked for: what its rerun finishes.
    var pending: TagState.Settings?
    /// The last command, for a rerun.
    var last: Command?
    /// Every command so far with its status, for the report of a failure.
    var history: [String] = []
    var tagPath: String { runner.folder + "/tag.nfc" }

    /// One operator command.
    struct Command {
        var arguments: [String]
        var kind: Kind
        /// The file given as the password (the new one of a change).
        var password: Int?
        /// The settings the command names.
        var given: GivenSettings

        enum Kind { case set, auth, remove, write }
    }

    /// The settings a `password set` names; nil for each it leaves out.
    struct GivenSettings {
        var attemptLimit: Int?
        var pack: [UInt8]?
        var readProtect: Bool?
        var fromPage: Int?

        func applied(to base: TagState.Settings) -> TagState.Settings {
            var settings = base
            if let attemptLimit { settings.attemptLimit = attemptLimit }
            if let pack { settings.pack = pack }
            if let readProtect { settings.readProtected = readProtect }
            if let fromPage { settings.auth0 = fromPage }
            return settings
        }
    }

    /// The settings of a first `password set` that names none: protection from page 4, writes
    /// only, unlimited attempts, PACK 0000.
    static let defaults = TagState.Settings(auth0: 4, readProtected: false, attemptLimit: 0, pack: [0, 0])

    init(runner: CommandRunner, seed: UInt64) throws {
        self.runner = runner
        random = ExplorationRandom(seed: seed)
        for (index, password) in Self.passwords.enumerated() {
            try Array((Hex.encode(password, uppercase: true) + "\n").utf8).write(to: runner.folder + "/p\(index).txt")
        }
    }

    mutating func explore(steps: Int) throws -> Int {
        var checked = 0
        let first = try runner.run(["write", "uri", "https://example.com/0", "--reader", reader(""), "--wait", "0"])
        guard first.status == 0 else { throw ExplorationFailure("the first write failed: \(first.output)") }
        for _ in 0..<steps {
            let command = nextCommand()
            let faults = nextFaults()
            let before = try state()
            let result = try runner.run(command.arguments + ["--reader", reader(faults), "--wait", "0"])
            let after = try state()
            history.append("\(command.arguments.joined(separator: " ")) [\(faults)] -> \(result.status): \(after)")
            checked += try check(command, status: result.status, before: before, after: after, output: result.output)
            update(command, status: result.status, after: after)
            last = command
        }
        return checked
    }

    private func reader(_ faults: String) -> String { "sim:ntag215?file=\(tagPath)" + faults }

    private func state() throws -> TagState {
        guard let state = try TagState(path: tagPath) else { throw ExplorationFailure("the tag file is gone") }
        return state
    }

    /// A random fault: none, a lost write, or the tag leaving at a random command.
    private mutating func nextFaults() -> String {
        switch random.below(10) {
        case 0..<4: return ""
        case 4..<6: return "&lose-write=\(1 + random.below(10))"
        default:
            let inFlight = ["tear", "none", "complete"][random.below(3)]
            return "&remove-after=\(1 + random.below(14))&in-flight=\(inFlight)"
        }
    }

    /// The file the operator picks for the tag's current password: the one they believe, now and
    /// then another (a careless operator).
    private mutating func pickCurrent() -> Int {
        if let believed, random.below(10) != 0 { return believed }
        return random.below(Self.passwords.count)
    }

    private mutating func nextGiven() -> GivenSettings {
        var given = GivenSettings()
        if random.below(3) == 0 { given.attemptLimit = random.below(4) }
        if random.below(3) == 0 { given.pack = [UInt8(random.below(256)), UInt8(random.below(256))] }
        if random.below(4) == 0 { given.readProtect = random.below(2) == 0 }
        if random.below(5) == 0 { given.fromPage = 4 + random.below(100) }
        return given
    }

    private static func options(_ given: GivenSettings) -> [String] {
        var options: [String] = []
        if let limit = given.attemptLimit { options += ["--attempt-limit", String(limit)] }
        if let pack = given.pack { options += ["--pack", Hex.encode(pack, uppercase: true)] }
        if let protect = given.readProtect { options.append(protect ? "--read-protect" : "--no-read-protect") }
        if let page = given.fromPage { options += ["--from-page", String(page)] }
        return options
    }

    private mutating func nextCommand() -> Command {
        // A command that was cut is mostly repeated as it was.
        if let last, pending != nil, random.below(4) != 0 { return last }
        let file = { (index: Int) in "p\(index).txt" }
        switch random.below(10) {
        case 0..<5:
            let new = random.below(Self.passwords.count)
            let given = nextGiven()
            var arguments = ["password", "set", "--password-file", file(new)]
            if believed != nil || random.below(8) == 0 { arguments += ["--old-password-file", file(pickCurrent())] }
            return Command(arguments: arguments + Self.options(given), kind: .set, password: new, given: given)
        case 5..<7:
            let current = pickCurrent()
            return Command(
                arguments: ["password", "auth", "--password-file", file(current)], kind: .auth, password: current,
                given: GivenSettings())
        case 7:
            let current = pickCurrent()
            return Command(
                arguments: ["password", "remove", "--password-file", file(current)], kind: .remove,
                password: current, given: GivenSettings())
        default:
            var arguments = ["write", "uri", "https://example.com/\(random.below(1000))"]
            if believed != nil { arguments += ["--password-file", file(pickCurrent())] }
            return Command(arguments: arguments, kind: .write, password: nil, given: GivenSettings())
        }
    }

    /// Checks the invariants after `command` ended with `status`; returns how many were checked.
    private func check(
        _ command: Command, status: Int32, before: TagState, after: TagState, output: String
    ) throws -> Int {
        func fail(_ what: String) -> ExplorationFailure {
            ExplorationFailure(
                "\(what)\nbefore: \(before)\nafter:  \(after)\noutput:\n\(output)\ncommands:\n"
                    + history.joined(separator: "\n"))
        }
        var checked = 2
        if after.isDisabled && !before.isDisabled { throw fail("invariant 1: the command disabled the password") }
        if after.isProtected && !Self.passwords.contains(after.password) {
            throw fail("invariant 2: the tag's password is in none of the operator's files")
        }
        if [64, 65, 66].contains(status) {
            checked += 1
            if after.bytes != before.bytes { throw fail("invariant 3: a refusal (\(status)) changed the tag") }
        }
        if status == 0, command.kind == .set, let new = command.password {
            checked += 2
            if after.password != Self.passwords[new] { throw fail("invariant 4: the password is not the new one") }
            let base = pending ?? expected ?? Self.defaults
            let wanted = command.given.applied(to: base)
            if after.settings != wanted {
                throw fail("invariant 4: settings \(after.settings), the operator asked for \(wanted)")
            }
        }
        if status == 0, command.kind == .remove {
            checked += 1
            if after.isProtected { throw fail("invariant 5: a removal left pages protected") }
        }
        return checked
    }

    /// What the operator believes after `command` ended with `status`.
    private mutating func update(_ command: Command, status: Int32, after: TagState) {
        switch (command.kind, status) {
        case (.set, 0):
            expected = command.given.applied(to: pending ?? expected ?? Self.defaults)
            believed = command.password
            pending = nil
        case (.set, 80):
            // "Repeat the command": the operator will, with what they asked for.
            pending = command.given.applied(to: pending ?? expected ?? Self.defaults)
        case (.remove, 0):
            believed = nil
            expected = nil
            pending = nil
        case (.remove, 80) where !after.isProtected:
            // Cut, but no page is protected any more: what the operator sets next is a first set.
            expected = nil
            pending = nil
        default:
            break
        }
    }
}

/// SplitMix64, seeded: the same seed gives the same sequences.
struct ExplorationRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

extension Array where Element == UInt8 {
    /// Writes the bytes to a new or replaced file at `path`.
    func write(to path: String) throws {
        guard FileBytes.write(self, to: path) else { throw ExplorationFailure("cannot write \(path)") }
    }
}
