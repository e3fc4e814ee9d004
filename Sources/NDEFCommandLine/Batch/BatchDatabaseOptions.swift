import CommandLineKit
import ProvisioningDatabase
import SystemSupport

/// The options of batch jobs kept in PostgreSQL, where to find the database, and how its
/// errors become exit statuses.
enum BatchDatabaseOptions {
    /// The environment variable with the database's URL when `--database` is not given.
    static let variable = "NDEFTOOL_DATABASE_URL"

    static let database = OptionSpec.option(
        "database", value: "url",
        help: "The job's PostgreSQL database: a libpq URI (postgresql://user@host/db) or keyword string "
            + "(default: $\(variable), else libpq's PG* variables). Never with a password: use ~/.pgpass or PGPASSWORD."
    )
    static let job = OptionSpec.option(
        "job", value: "name",
        help: "Keep the job in the database under <name>: created with the plan, joined when it exists with the "
            + "same plan, template and options.")
    static let join = OptionSpec.option(
        "join", value: "name",
        help: "Join the database's job <name> with this machine's readers (the plan, template and options come "
            + "from the database).")
    static let lease = OptionSpec.option(
        "lease", value: "seconds",
        help: "How long a station's claim on a row lasts without renewal, for a new database job (default "
            + "\(DatabaseJob.defaultLeaseSeconds)).")

    /// The database `--database` or $NDEFTOOL_DATABASE_URL names (an empty target leaves it
    /// to libpq's variables).
    ///
    /// - Throws: a usage error (64) for a `--database` that holds a password (any user of the
    ///   machine can read another's command line) or that libpq cannot parse.
    static func target(_ values: ParsedValues, io: any CommandIO) throws(CommandLineError) -> DatabaseTarget {
        if let text = values.value(database.long) {
            let target: DatabaseTarget
            do {
                target = try DatabaseTarget(text)
            } catch {
                throw .invalidValue("(not shown)", for: database, reason: error.reason)
            }
            if let found = target.secretFound {
                throw .usage(
                    "--database holds a password (its \(found) part): a command line is visible to every user of the "
                        + "machine, so ndeftool refuses it. Put the password in ~/.pgpass (or the file $PGPASSFILE "
                        + "names) or in $PGPASSWORD, an SSL key passphrase in a connection service file ($PGSERVICEFILE, "
                        + "named with service=), and give the URL without it; nothing was done")
            }
            return target
        }
        let text = io.environment(variable) ?? ""
        do {
            return try DatabaseTarget(text)
        } catch {
            throw CommandLineError(.usage, "$\(variable): \(error.reason)")
        }
    }

    /// The command-line error of a database error: what failed, and the exit status that says
    /// it (a job of another plan 65, no such job 66, the server out of reach 69, ...).
    static func error(_ error: DatabaseError) -> CommandLineError {
        let status: ExitStatus
        switch error.code {
        case .invalidTarget, .passwordInTarget: status = .usage
        case .jobNotFound: status = .noInput
        case .connectionFailed, .connectionLost, .serializationFailure: status = .unavailable
        case .jobMismatch, .schemaTooNew, .schemaOutdated, .unexpectedData: status = .dataError
        default: status = .ioError
        }
        return CommandLineError(status, error.description)
    }

    /// This machine's name (`gethostname`), recorded with its stations.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    /// A job name: 1 to 200 characters, no control characters.
    static func jobName(_ text: String, option: OptionSpec) throws(CommandLineError) -> String {
        guard !text.isEmpty, text.count <= 200,
            !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw .invalidValue(
                text, for: option, reason: "a job name has 1 to 200 characters, none a control character")
        }
        return text
    }
}
