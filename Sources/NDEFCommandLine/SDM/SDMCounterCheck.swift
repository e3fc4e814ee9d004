import CommandLineKit
import HexText
import NFCCrypto
import NTAG424
import ProvisioningDatabase

/// `sdm verify --database`: each URL whose SDMMAC verifies has its counter accepted or refused
/// by a counter store in PostgreSQL that any number of `sdm verify` processes share
/// (``ProvisioningDatabase/DatabaseCounterStore``). A URL that does not verify never reaches
/// the store.
struct SDMCounterCheck: Sendable {
    /// The store.
    let store: DatabaseCounterStore
    /// The key set the counters are kept under.
    let keySet: String
    /// What every token of this process begins with: random, so no other process (or an earlier
    /// run of this one) makes the same token; the URL's line number follows.
    let tokenPrefix: String

    /// What became of one URL's counter.
    enum Outcome {
        /// The store accepted it, refused it as a replay, or the URL never reached it.
        case decided
        /// The store could not decide: the URL was not accepted.
        case failed(DatabaseError)
    }

    /// The check `--database` asks for; nil without it.
    ///
    /// - Throws: a usage error (64) for `--database` with `--last-counter`, `--key-set` or
    ///   `--accept-log` without `--database`, a key set name that is not one, or a database URL
    ///   that holds a password or that libpq cannot parse.
    static func make(
        _ values: ParsedValues, verifier: SDMVerifyCommand.Verifier, io: any CommandIO
    ) throws(CommandLineError) -> SDMCounterCheck? {
        guard values.isGiven(SDMVerifyCommand.database.long) else {
            for option in [SDMVerifyCommand.keySet, SDMVerifyCommand.acceptLog] where values.isGiven(option.long) {
                throw .usage("--\(option.long) goes with --database (the counter store)")
            }
            return nil
        }
        if values.isGiven(SDMVerifyCommand.lastCounter.long) {
            throw .usage(
                "--database and --last-counter: the counter store keeps each tag's last counter; give one or the "
                    + "other")
        }
        let target = try BatchDatabaseOptions.target(values, io: io)
        let keySet: String
        if let name = values.value(SDMVerifyCommand.keySet.long) {
            do {
                _ = try NTAG424CounterRequest(
                    keySet: name, uid: [UInt8](repeating: 0, count: 7), counter: 0, token: "t")
            } catch {
                throw .invalidValue(name, for: SDMVerifyCommand.keySet, reason: error.reason)
            }
            keySet = name
        } else {
            keySet = try defaultKeySet(verifier)
        }
        let random: [UInt8]
        do {
            random = try SecureRandom.bytes(count: 12)
        } catch {
            throw CommandLineError(.internalError, "no random bytes for the requests' tokens: \(error.reason)")
        }
        let settings = DatabaseCounterStore.Settings(
            keepsAcceptLog: values.flag(SDMVerifyCommand.acceptLog.long), applicationName: "ndeftool sdm verify")
        return SDMCounterCheck(
            store: DatabaseCounterStore(target, settings: settings), keySet: keySet,
            tokenPrefix: Hex.encode(random, uppercase: false))
    }

    /// The key set of the keys URLs are checked with: `master-` or `file-read-` and the key's
    /// check value (the first 3 bytes of AES-128 of a zero block, upper-case hex), never the key.
    static func defaultKeySet(_ verifier: SDMVerifyCommand.Verifier) throws(CommandLineError) -> String {
        do {
            switch verifier {
            case .master(let master):
                return "master-" + Hex.encode(Array(try master.keyCheckValue()), uppercase: true)
            case .keys(let keys):
                return "file-read-" + Hex.encode(Array(try keys.fileReadKeyCheckValue()), uppercase: true)
            }
        } catch {
            throw CommandLineError(.internalError, "the key's check value: \(error.reason)")
        }
    }

    /// Records `verification`'s counter when its SDMMAC verified (the request's token is this
    /// process's prefix and `line`): a counter not above the tag's last accepted one makes it a
    /// replay, not valid; a store that cannot decide makes it not valid too.
    func check(_ verification: inout SDMVerification, line: Int) async -> Outcome {
        guard verification.valid else { return .decided }
        guard let uid = verification.uidBytes, let counter = verification.counter else {
            verification.valid = false
            verification.problem =
                "the URL carries no \(verification.uidBytes == nil ? "UID" : "counter"): the counter store "
                + "(--database) keeps each tag's last counter by its UID"
            return .decided
        }
        let request: NTAG424CounterRequest
        do {
            request = try NTAG424CounterRequest(
                keySet: keySet, uid: uid, counter: counter, token: tokenPrefix + "-" + String(line))
        } catch {
            verification.valid = false
            verification.problem = error.reason
            return .decided
        }
        do {
            let decision = try await store.decide(request)
            if !decision.isAccepted {
                verification.valid = false
                verification.problem =
                    "replayed: counter \(counter) is not above the last one accepted, \(decision.lastAccepted)"
            }
            return .decided
        } catch {
            verification.valid = false
            // libpq's message may run over lines; the first says what failed (standard error has all).
            let reason = error.reason.split(separator: "\n").first.map(String.init) ?? error.reason
            verification.problem = "not accepted: the counter store could not decide: \(reason)"
            return .failed(error)
        }
    }
}
