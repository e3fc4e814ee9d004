import Foundation
import HexText
import NDEF
import NFCCrypto
import Provisioning

/// Random sequences of `ndeftool batch` runs of one job kept in a journal (or, with a database,
/// half of the time in a database job: `--job`, `--join`), as an operator runs them: the start with guarding options (`--lock`, `--derive-passwords` with its settings,
/// `--require-genuine`), killed (SIGKILL), interrupted (SIGINT, SIGTERM) or losing a write at a
/// random tag command, then resumed with fewer, the same or contradicting options, another
/// master secret, a forgotten code or secret, the start command again, supplies of signed and
/// unsigned tags, new tags and tags already done. After every command the invariants are
/// checked against the journal and every tag file.
///
/// Invariants, after every command:
/// 1. Every command ends with a status the batch help documents (a kill ends with SIGKILL).
/// 2. A refusal (64, 65, 66, 79) leaves the journal and every tag file byte for byte.
/// 3. The journal's header keeps every guarding option the job started with, and never the
///    master secret (a database job's options are checked by invariant 5 alone).
/// 4. Every row the journal says done stays done, on the same tag, holding its message.
/// 5. Every tag of a done row carries every guard of the job: read-only with `--lock`, the
///    password derived from the job's secret with the job's AUTHLIM, PROT and AUTH0 with
///    `--derive-passwords`, a signed tag with `--require-genuine`.
/// 6. No row's message is on two tags; no unsigned tag holds a row in a `--require-genuine`
///    job; no tag's password is disabled.
/// 7. A command that asks for nothing the job does not (the job's own options, fewer of them, the
///    line the tool printed to go on with) is not refused; one that contradicts a guard, or lacks
///    the secret, code or key the job needs, is.
struct BatchExploration: OperatorSequence {
    /// The options that guard the job, as it started.
    struct Guards: Equatable, CustomStringConvertible {
        var lock = false
        var password: PasswordGuard?
        var requireGenuine = false

        var description: String {
            (lock ? "lock " : "") + (password.map { "password(\($0)) " } ?? "") + (requireGenuine ? "genuine" : "")
        }
    }

    /// `--derive-passwords` and its settings.
    struct PasswordGuard: Equatable, CustomStringConvertible {
        var attemptLimit: Int?
        var readProtect = false
        var fromPage: Int?

        var description: String {
            "AUTHLIM \(attemptLimit ?? 0), PROT \(readProtect ? 1 : 0), AUTH0 \(fromPage ?? 4)"
        }
    }

    static let template = "https://x.test/{counter}"
    let runner: CommandRunner
    var random: ExplorationRandom
    let rows: Int
    let guards: Guards
    /// The job code, from the dry run, when the job locks tags.
    var code = ""
    /// Whether the journal exists (the job started).
    var started = false
    /// Rows the journal said were done, with their tags' UIDs.
    var done: [Int: [UInt8]] = [:]
    /// The master secret the job's passwords are derived from (s0.bin).
    let secret: [UInt8]
    /// The database job's name when the job is kept in the runner's database (`--job`, `--join`)
    /// rather than a journal.
    let job: String?
    /// The command line the last run printed to go on with, when it printed one.
    var suggested: [String]?
    var history: [String] = []
    var journal: String { runner.folder + "/job.journal" }

    init(runner: CommandRunner, seed: UInt64) throws {
        self.runner = runner
        var random = ExplorationRandom(seed: seed)
        rows = 3 + random.below(6)
        var guards = Guards()
        guards.lock = random.below(3) == 0
        if random.below(2) == 0 {
            var password = PasswordGuard()
            if random.below(2) == 0 { password.attemptLimit = random.below(4) }
            password.readProtect = random.below(3) == 0
            if random.below(3) == 0 { password.fromPage = 4 + random.below(100) }
            guards.password = password
        }
        guards.requireGenuine = random.below(3) == 0
        self.guards = guards
        var secrets: [[UInt8]] = [[], []]
        for index in 0..<2 {
            for _ in 0..<20 { secrets[index].append(UInt8(random.below(256))) }
            try secrets[index].write(to: runner.folder + "/s\(index).bin")
        }
        secret = secrets[0]
        job = runner.database != nil && random.below(2) == 0 ? "explore-\(getpid())-\(seed)" : nil
        self.random = random
        let key = try ECDSAPrivateKey(generatingOn: "secp128r1")
        try Array(try key.pemRepresentation.utf8).write(to: runner.folder + "/key.pem")
        try (try key.publicKey.derRepresentation).write(to: runner.folder + "/key.der")
        for folder in ["signed", "plain"] {
            try FileManager.default.createDirectory(
                atPath: runner.folder + "/" + folder, withIntermediateDirectories: true)
        }
    }

    mutating func explore(steps: Int) throws -> Int {
        history.append("job: \(rows) rows, \(guards)" + (job.map { " (database job \($0))" } ?? ""))
        if guards.lock {
            let dry = try runner.run(startArguments(guards) + ["--dry-run"])
            guard dry.status == 0,
                let line = dry.output.split(separator: "\n").first(where: { $0.hasPrefix("Job code") }),
                let code = line.split(separator: " ").last
            else { throw ExplorationFailure("the dry run gave no job code: \(dry.output)") }
            self.code = String(code)
        }
        var checked = 0
        for _ in 0..<steps {
            let (arguments, expectation) = nextCommand()
            let line: [String]
            if arguments.contains("--reader") {
                line = arguments
            } else {
                line = arguments + ["--reader", nextReader() + nextFaults(), "--wait", "0.3"]
            }
            let before = try snapshot()
            let result = try runner.run(line)
            if job == nil
                ? FileManager.default.fileExists(atPath: journal)
                : result.output.contains("Created job ") || result.output.contains("Joined job ")
            {
                started = true
            }
            history.append("\(line.joined(separator: " ")) -> \(result.status)")
            suggested = Self.suggestedLine(in: result.output)
            checked += try check(result, expectation: expectation, before: before)
        }
        return checked
    }

    /// The start command with `guards`, without a reader.
    private func startArguments(_ guards: Guards) -> [String] {
        ["batch", "uri", Self.template, "--from", "1", "--to", String(rows)] + jobLocation
            + Self.options(guards, secret: "s0.bin", code: code)
    }

    /// Where the job is kept: the journal, or the database job.
    private var jobLocation: [String] {
        guard let job, let database = runner.database else { return ["--journal", "job.journal"] }
        return ["--job", job, "--database", database]
    }

    /// The command that goes on with the job: `--resume JOURNAL` or `--join NAME`.
    private var goOn: [String] {
        guard let job, let database = runner.database else { return ["batch", "--resume", "job.journal"] }
        return ["batch", "--join", job, "--database", database]
    }

    private static func options(_ guards: Guards, secret: String, code: String) -> [String] {
        var options: [String] = []
        if guards.lock { options += ["--lock"] + (code.isEmpty ? [] : ["--confirm", code]) }
        if let password = guards.password {
            options += ["--derive-passwords", "--master-secret-file", secret]
            if let limit = password.attemptLimit { options += ["--attempt-limit", String(limit)] }
            if password.readProtect { options.append("--read-protect") }
            if let page = password.fromPage { options += ["--from-page", String(page)] }
        }
        if guards.requireGenuine { options += ["--require-genuine", "--signature-key", "key.der"] }
        return options
    }

    /// What a command must end with.
    enum Expectation {
        /// Refused (64, 65, 66, 79): it contradicts the job or lacks what the job needs.
        case refused
        /// Not refused: it asks for nothing the job does not.
        case accepted
    }

    /// The next command and what it must end with.
    private mutating func nextCommand() -> (arguments: [String], expectation: Expectation) {
        guard started else { return (startArguments(guards), .accepted) }
        // The line the tool printed, as the operator copies it.
        if let suggested, random.below(3) == 0 { return (suggested, .accepted) }
        // What a resume needs: the secret of a password job, the code of a locking job, the
        // signature key of a job that accepts it.
        var needed = goOn
        if guards.password != nil { needed += ["--master-secret-file", "s0.bin"] }
        if guards.lock { needed += ["--confirm", code] }
        if guards.requireGenuine { needed += ["--signature-key", "key.der"] }
        switch random.below(12) {
        case 0..<4: return (needed, .accepted)
        case 4..<6:
            // The same options again: accepted.
            return (
                goOn + Self.options(guards, secret: "s0.bin", code: code), .accepted
            )
        case 6: return (needed + ["--retry-failed"], .accepted)
        // The start again: a journal exists (refused); a database job of the same plan and
        // options is joined.
        case 7: return (startArguments(guards), job == nil ? .refused : .accepted)
        case 8:
            // Forgotten: the secret, the code or the signature key.
            if guards.password != nil || guards.lock || guards.requireGenuine {
                return (goOn, .refused)
            }
            return (needed, .accepted)
        default:
            // Another value of one guard: refused, but for leaving out --read-protect (fewer
            // options: the job's own apply).
            var other = guards
            var secret = "s0.bin"
            var expectation = Expectation.refused
            switch random.below(5) {
            case 0: other.lock.toggle()
            case 1: other.requireGenuine.toggle()
            case 2:
                if other.password == nil { other.password = PasswordGuard() } else { secret = "s1.bin" }
            case 3:
                var password = other.password ?? PasswordGuard()
                password.attemptLimit = ((password.attemptLimit ?? 0) + 1 + random.below(3)) % 4
                if other.password == nil { password.attemptLimit = 1 }
                other.password = password
            default:
                var password = other.password ?? PasswordGuard()
                if other.password != nil && password.readProtect { expectation = .accepted }
                password.readProtect.toggle()
                other.password = password
            }
            // A contradicting --lock also needs its code, which the job's dry run did not give.
            let code = other.lock && !guards.lock ? "000-000" : self.code
            return (
                goOn + Self.options(other, secret: secret, code: code), expectation
            )
        }
    }

    /// The command line after "Continue with:" or "Retry them with:" in `output`, as a shell
    /// splits it (words, single quotes), without `ndeftool`.
    static func suggestedLine(in output: String) -> [String]? {
        for prefix in ["Continue with: ", "Retry them with: "] {
            guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { continue }
            var words: [String] = []
            var word: String?
            var quoted = false
            for character in line.dropFirst(prefix.count) {
                switch character {
                case "'":
                    quoted.toggle()
                    word = word ?? ""
                case " " where !quoted:
                    if let done = word { words.append(done) }
                    word = nil
                default: word = (word ?? "") + String(character)
                }
            }
            if let word { words.append(word) }
            guard words.first == "ndeftool", !quoted else { return nil }
            return Array(words.dropFirst())
        }
        return nil
    }

    /// A supply of 1 to rows + 1 tags, of three seeds, signed or not, in its own folder. The
    /// seeds of the two folders differ: one UID is one tag (two tags with one UID are clones,
    /// which no job can tell apart).
    private mutating func nextReader() -> String {
        let signed = random.below(3) != 0
        let supply = 1 + random.below(rows + 1)
        let seed = 1 + random.below(3) + (signed ? 0 : 3)
        return "sim:ntag215?supply=\(supply)&seed=\(seed)&file=\(signed ? "signed" : "plain")/"
            + (signed ? "&signing-key=key.pem" : "")
    }

    private mutating func nextFaults() -> String {
        let commands = 1 + random.below(12 * rows)
        switch random.below(10) {
        case 0..<4: return ""
        case 4..<7: return "&signal-after=\(commands)"
        case 7: return "&signal-after=\(commands)&signal=\(["INT", "TERM"][random.below(2)])"
        default: return "&lose-write=\(1 + random.below(6 * rows))"
        }
    }

    /// The journal's bytes and every tag file's, to tell what a command changed.
    struct Snapshot: Equatable {
        var ledger: [UInt8]?
        var tags: [String: [UInt8]]
    }

    private func snapshot() throws -> Snapshot {
        var tags: [String: [UInt8]] = [:]
        for folder in ["signed", "plain"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: runner.folder + "/" + folder).sorted() {
                tags[folder + "/" + name] = FileBytes.read(runner.folder + "/" + folder + "/" + name)
            }
        }
        return Snapshot(ledger: job == nil ? FileBytes.read(journal) : try databaseReport(), tags: tags)
    }

    /// The database job's JSON report (`batch report --json`); nil before the job exists.
    private func databaseReport() throws -> [UInt8]? {
        guard let job, let database = runner.database, started else { return nil }
        let result = try runner.run(["batch", "report", "--job", job, "--database", database, "--json", "-o", "-"])
        guard result.status == 0 else { throw ExplorationFailure("batch report failed: \(result.output)") }
        return Array(result.output.utf8)
    }

    /// The rows the database job's report says are done (their outcome is the job's whole
    /// outcome), with their tags' UIDs.
    private func databaseDoneRows(_ report: [UInt8]) throws -> [Int: [UInt8]] {
        var outcome = ["written"]
        if guards.lock { outcome.append("locked") }
        if guards.password != nil { outcome.append("password") }
        let whole = outcome.joined(separator: "+")
        guard let object = try JSONSerialization.jsonObject(with: Data(report)) as? [String: Any],
            let rows = object["rows"] as? [[String: Any]]
        else { throw ExplorationFailure("the job's report is not a JSON object with rows") }
        var done: [Int: [UInt8]] = [:]
        for row in rows where row["outcome"] as? String == whole {
            guard let number = row["row"] as? Int,
                let uid = (row["uid"] as? String).flatMap({ try? Hex.decode($0) })
            else {
                throw ExplorationFailure("a done row of the job's report has no row number or UID: \(row)")
            }
            done[number] = uid
        }
        return done
    }

    /// Checks the invariants after a command; returns how many were checked.
    private mutating func check(_ result: CommandRunner.Result, expectation: Expectation, before: Snapshot) throws
        -> Int
    {
        func fail(_ what: String) -> ExplorationFailure {
            ExplorationFailure("\(what)\noutput:\n\(result.output)\ncommands:\n" + history.joined(separator: "\n"))
        }
        var checked = 1
        guard [0, 64, 65, 66, 75, 79, 80, 82, 84, 130, 137, 143].contains(result.status) else {
            throw fail("invariant 1: the batch ended \(result.status)")
        }
        let after = try snapshot()
        let refused = [64, 65, 66, 79].contains(result.status)
        switch (expectation, refused) {
        case (.refused, false): throw fail("a contradicting or incomplete command was not refused")
        case (.accepted, true): throw fail("invariant 7: a command that asks for nothing new was refused")
        default: break
        }
        if refused {
            checked += 1
            if after != before { throw fail("invariant 2: a refusal (\(result.status)) changed the journal or a tag") }
        }
        guard started else { return checked }
        var now: [Int: [UInt8]] = [:]
        if job != nil {
            guard let report = after.ledger else { throw fail("the database job has no report") }
            now = try databaseDoneRows(report)
        } else {
            let state = try ProvisioningJournal.recover(journal)
            checked += try checkHeader(state.header, fail)
            for row in state.doneRows {
                guard let uid = state.status(of: row).uid else {
                    throw fail("invariant 4: row \(row) is done on no tag")
                }
                now[row] = uid
            }
        }
        for (row, uid) in done where now[row] != uid {
            throw fail(
                "invariant 4: row \(row), told done on \(Hex.encode(uid, uppercase: true)), is no longer done on it")
        }
        done = now
        checked += 1
        return checked + (try checkTags(fail))
    }

    /// Invariant 3.
    private func checkHeader(_ header: JournalHeader, _ fail: (String) -> ExplorationFailure) throws -> Int {
        let options = header.options
        if options["lock"] != (guards.lock ? "yes" : "no") {
            throw fail("invariant 3: the journal's lock is \(options["lock"] ?? "unset")")
        }
        if (options["password"] == "derived") != (guards.password != nil) {
            throw fail("invariant 3: the journal's password is \(options["password"] ?? "unset")")
        }
        if (options["require-genuine"] == "yes") != guards.requireGenuine {
            throw fail("invariant 3: the journal's require-genuine is \(options["require-genuine"] ?? "unset")")
        }
        if let password = guards.password,
            options["password-attempt-limit"] != String(password.attemptLimit ?? 0)
        {
            throw fail("invariant 3: the journal's attempt limit is \(options["password-attempt-limit"] ?? "unset")")
        }
        let bytes = FileBytes.read(journal) ?? []
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        if text.contains(Hex.encode(secret, uppercase: true).lowercased()) || bytes.contains(secret) {
            throw fail("invariant 3: the journal holds the master secret")
        }
        return 2
    }

    /// Invariants 4 (the message), 5 and 6.
    private func checkTags(_ fail: (String) -> ExplorationFailure) throws -> Int {
        var holders: [String: [String]] = [:]
        var states: [String: TagState] = [:]
        for folder in ["signed", "plain"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: runner.folder + "/" + folder).sorted()
            where name.hasSuffix(".nfc") {
                let path = folder + "/" + name
                guard let state = try TagState(path: runner.folder + "/" + path) else { continue }
                states[path] = state
                if state.isDisabled { throw fail("invariant 6: the password of \(path) is disabled") }
                if let uri = state.uri, uri.hasPrefix("https://x.test/") { holders[uri, default: []].append(path) }
                if guards.requireGenuine && folder == "plain" && state.uri?.hasPrefix("https://x.test/") == true {
                    throw fail("invariant 6: the unsigned tag \(path) holds a row of a --require-genuine job")
                }
            }
        }
        for (uri, paths) in holders where paths.count > 1 {
            throw fail("invariant 6: \(uri) is on \(paths.count) tags: \(paths.joined(separator: ", "))")
        }
        let derivation = try TagPasswordDerivation(masterSecret: secret)
        for (row, uid) in done {
            let uri = "https://x.test/\(row)"
            guard let path = holders[uri]?.first, let state = states[path], state.uid == uid else {
                throw fail(
                    "invariant 4: row \(row), done on \(Hex.encode(uid, uppercase: true)), is on no such tag (\(holders[uri] ?? []))"
                )
            }
            if guards.lock && !state.isReadOnly { throw fail("invariant 5: \(path) (row \(row)) is not read-only") }
            if guards.requireGenuine && !path.hasPrefix("signed/") {
                throw fail("invariant 5: \(path) (row \(row)) is not a signed tag")
            }
            if let password = guards.password {
                let derived = try derivation.derive(uid: uid)
                let wanted = TagState.Settings(
                    auth0: password.fromPage ?? 4, readProtected: password.readProtect,
                    attemptLimit: password.attemptLimit ?? 0, pack: derived.passwordAcknowledge)
                if state.password != derived.password || state.settings != wanted {
                    throw fail("invariant 5: \(path) (row \(row)) has \(state), the job asks for \(wanted)")
                }
            }
        }
        return 3 + done.count
    }
}
