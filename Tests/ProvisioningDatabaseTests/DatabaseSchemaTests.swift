import Provisioning
import TestSupport
import Testing

@testable import ProvisioningDatabase

@Suite(.enabled(if: PostgresTest.isAvailable, PostgresTest.skipReason))
struct DatabaseSchemaTests {
    @Test("A new database gets the schema on first use; a second migration changes nothing")
    func migratesOnce() async throws {
        try await TestDatabase.with { database in try await migratesOnce(database) }
    }

    func migratesOnce(_ database: TestDatabase) async throws {
        let jobs = JobDatabase(try DatabaseTarget(database.url))
        #expect(try await jobs.schemaStatus().version == 0)
        #expect(try await jobs.migrate() == 0)
        let status = try await jobs.schemaStatus()
        #expect(status.isCurrent && status.version == DatabaseSchema.latestVersion)
        #expect(status.applied.map(\.version) == Array(1...DatabaseSchema.latestVersion))
        #expect(try await jobs.migrate() == DatabaseSchema.latestVersion)
        #expect(
            try await database.value("SELECT count(*) FROM ndeftool_schema_version")
                == "\(DatabaseSchema.latestVersion)")
    }

    @Test("A database a later ndeftool upgraded is refused, never changed")
    func refusesNewerSchema() async throws {
        try await TestDatabase.with { database in try await refusesNewerSchema(database) }
    }

    func refusesNewerSchema(_ database: TestDatabase) async throws {
        let jobs = JobDatabase(try DatabaseTarget(database.url))
        try await jobs.migrate()
        try await database.psql("INSERT INTO ndeftool_schema_version (version, description) VALUES (99, 'future')")
        await #expect(throws: DatabaseError(.schemaTooNew, "")) { try await jobs.migrate() }
        await #expect(throws: DatabaseError(.schemaTooNew, "")) { try await jobs.job(named: "x") }
        #expect(try await database.value("SELECT max(version) FROM ndeftool_schema_version") == "99")
    }
}
