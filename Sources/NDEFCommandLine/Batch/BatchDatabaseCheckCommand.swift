import CommandLineKit
import ProvisioningDatabase

/// `ndeftool batch db check`: whether a database's ndeftool schema is this ndeftool's, and
/// `--upgrade` to make it so.
enum BatchDatabaseCheckCommand {
    static let upgrade = OptionSpec.flag(
        "upgrade", help: "Create the schema or apply the migrations it lacks (one transaction).")
    static let json = OptionSpec.flag("json", help: "Print JSON.")

    /// `batch db`, the group.
    static let group = CommandSpec(
        name: "db", abstract: "The database of batch jobs kept in PostgreSQL.",
        discussion: """
            A database holds any number of batch jobs (ndeftool batch ... --job NAME). Its \
            tables are created on first use and upgraded by later versions of ndeftool, each \
            change a numbered migration recorded in the table ndeftool_schema_version.

            Examples:
              ndeftool batch db check --upgrade --database postgresql://db.example/provisioning
            """,
        subcommands: [spec])

    /// The command.
    static let spec = CommandSpec(
        name: "check",
        abstract: "Say whether the database's ndeftool schema is current; --upgrade makes it so.",
        discussion: """
            Reads the schema version the database records (0: no ndeftool tables yet) and \
            compares it with this ndeftool's. --upgrade creates the tables or applies the \
            missing migrations, in one transaction under an advisory lock (stations that \
            start meanwhile wait for it); a database a later ndeftool upgraded is never \
            changed.

            Exit status: 0 current (or upgraded); 65 older or newer than this ndeftool \
            (without --upgrade, or newer); 69 the database cannot be reached.

            Examples:
              ndeftool batch db check --upgrade --database postgresql://db.example/provisioning
              ndeftool batch db check --json --database postgresql://db.example/provisioning
            """,
        options: [BatchDatabaseOptions.database, upgrade, json],
        run: run
    )

    /// The result as JSON.
    struct CheckJSON: Encodable {
        var database: String
        var version: Int
        var latestVersion: Int
        var current: Bool
        var upgradedFrom: Int?
    }

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let target = try BatchDatabaseOptions.target(values, io: invocation.io)
        let jobs = JobDatabase(target)
        var status: DatabaseSchemaStatus
        var upgradedFrom: Int?
        do {
            status = try await jobs.schemaStatus()
            if values.flag(upgrade.long), status.version < status.latestVersion {
                upgradedFrom = try await jobs.migrate()
                status = try await jobs.schemaStatus()
            }
        } catch {
            throw BatchDatabaseOptions.error(error)
        }
        if values.flag(json.long) {
            try invocation.io.writeOutput(
                try MessageJSON.text(
                    of: CheckJSON(
                        database: target.display, version: status.version, latestVersion: status.latestVersion,
                        current: status.isCurrent, upgradedFrom: upgradedFrom)) + "\n")
        } else {
            let text: String
            if let upgradedFrom {
                text = "The \(target.display): schema upgraded from version \(upgradedFrom) to \(status.version)."
            } else if status.isCurrent {
                text = "The \(target.display): schema version \(status.version), current."
            } else if status.version > status.latestVersion {
                text =
                    "The \(target.display): schema version \(status.version), newer than this ndeftool's "
                    + "(\(status.latestVersion)): use a later ndeftool."
            } else {
                text =
                    "The \(target.display): schema version \(status.version), this ndeftool uses "
                    + "\(status.latestVersion): upgrade it with 'ndeftool batch db check --upgrade' (or the first "
                    + "'ndeftool batch ... --job NAME' does)."
            }
            try invocation.io.writeOutput(text + "\n")
        }
        return status.isCurrent ? .success : .dataError
    }
}
