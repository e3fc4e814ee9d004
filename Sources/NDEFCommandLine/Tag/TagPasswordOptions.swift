import CommandLineKit
import NFCSession
import TagMemory

/// The password of the tag commands that read or change a password-protected NTAG21x or MIFARE
/// Ultralight EV1 tag (`write`, `erase`, `format`, `lock`, `read`, `info`, `dump`).
///
/// A PWD_AUTH authentication lasts until the tag is selected again (NTAG213/215/216 8.8, 10.7),
/// so it ends with each command: these commands authenticate in their own session. The password
/// comes the ways of `ndeftool password` (``PasswordInput``): `--password-file FILE` or
/// `NDEFTOOL_PASSWORD`; a prompt without echo only when the tag needs it and standard input and
/// standard error are a terminal; never the command line. When the tag protects pages the
/// command touches, PWD_AUTH is sent once before the operation, never retried.
enum TagPasswordOptions {
    /// What the command does with the tag's pages.
    enum Access {
        /// Reads pages: a password is needed when PROT protects reading.
        case read
        /// Writes pages of the data area or the lock bytes: a password is needed when AUTH0 is
        /// before the configuration pages, or reading is protected too.
        case write
    }

    /// The options, listed under their own heading in help.
    static let group = OptionGroup(title: "Password options", [PasswordInput.passwordFile, PasswordInput.pack])

    /// The advice for a protected tag and no password.
    static let advice =
        "Give the password with --password-file FILE or the \(PasswordInput.variable) environment variable "
        + "(it is tried once), or remove it with 'ndeftool password remove'; 'ndeftool password status' shows "
        + "what is protected."

    /// The password and PACK of an invocation, read before the tag is reached.
    struct Given {
        /// The password given by file or variable; nil when none was.
        var password: [UInt8]?
        /// The PACK of `--pack`; nil when not given.
        var acknowledge: [UInt8]?
        /// The invocation, for a prompt.
        var invocation: CommandInvocation
    }

    /// The password and PACK given to `invocation` (a malformed one: ``ExitStatus/dataError``,
    /// before any tag is reached).
    static func given(_ invocation: CommandInvocation) throws(CommandLineError) -> Given {
        Given(
            password: try PasswordInput.given(.current, invocation),
            acknowledge: try PasswordInput.acknowledge(invocation.values), invocation: invocation)
    }

    /// Refuses `--password-file -` beside another option that reads standard input (`option`,
    /// such as `write --from -`), before either is read: standard input can be read once.
    static func checkStandardInput(_ values: ParsedValues, besides option: OptionSpec) throws(CommandLineError) {
        guard values.value(PasswordInput.passwordFile.long) == "-", values.value(option.long) == "-" else { return }
        throw .usage(
            "--\(option.long) - and --\(PasswordInput.passwordFile.long) - both want standard input: give the "
                + "password in a file or $\(PasswordInput.variable), or the other input in a file")
    }

    /// Authenticates once with `tag` when it protects pages of `access` and a password is given
    /// (or typed at a prompt on a terminal); otherwise does nothing, and the operation reports
    /// what it cannot reach (exit status 78 with ``advice``).
    static func unlock(_ tag: any NFCNDEFTag, access: Access, given: Given) async throws {
        guard let type2 = tag as? NFCMiFareTag, type2.chip?.configurationPages != nil else { return }
        let io = given.invocation.io
        let canPrompt = io.isTerminal(.input) && io.isTerminal(.error)
        guard given.password != nil || canPrompt else { return }
        let status = try await type2.passwordStatus()
        guard status.mechanism == .password, !status.isAuthenticated,
            needsPassword(status.protection, access: access, configurationStart: type2.chip?.configurationPages?.cfg0)
        else { return }
        let password: [UInt8]
        if let known = given.password {
            password = known
        } else {
            io.writeError("The tag is password-protected. ")
            password = try await PasswordInput.password(.current, given.invocation)
        }
        try PasswordAttempts.checkAgainstRecord(
            password, uid: type2.identifier, status: status, invocation: given.invocation)
        do {
            try await type2.authenticate(password: password, expectedPasswordAcknowledge: given.acknowledge)
        } catch {
            throw PasswordAttempts.counted(error, limit: status.authenticationLimit)
        }
    }

    /// The commands with these options.
    static let commands: Set<String> = ["write", "erase", "format", "lock", "read", "info", "dump"]

    /// The refusal of a password option on the command line of a tag command (`--password X`,
    /// `--pwd=X`), before the parser, so the message names where passwords come from
    /// (``PasswordInput/sources``); nil when there is none.
    static func refusal(_ arguments: [String]) -> CommandLineError? {
        guard let command = arguments.first, commands.contains(command) else { return nil }
        for word in arguments.dropFirst() {
            if word == "--" { break }
            guard word.hasPrefix("--") else { continue }
            let name = String(word.split(separator: "=", maxSplits: 1).first ?? "").lowercased()
            // Options whose names hold "password" but no password: the file's name, and a flag.
            let allowed = [PasswordInput.passwordFile.long, MirrorOptions.counterPasswordProtected.long].map {
                "--" + $0
            }
            guard !allowed.contains(name), name.contains("pass") || name.contains("pwd") else { continue }
            return .usage(
                "Passwords are not taken from the command line (option '\(name)' was given; its value is not "
                    + "shown). " + PasswordInput.sources)
        }
        return nil
    }

    /// Whether `protection` covers pages that `access` touches; `configurationStart` is CFG0's page.
    static func needsPassword(_ protection: NFCPasswordStatus.Protection, access: Access, configurationStart: Int?)
        -> Bool
    {
        switch protection {
        case .off: return false
        case .unknown: return true
        case .from(let page, let readProtected):
            switch access {
            case .read: return readProtected
            case .write: return readProtected || configurationStart.map { page < $0 } ?? true
            }
        }
    }
}
