import Foundation
import Provisioning
import TagMemory
import TestSupport
import Testing

extension BatchDatabaseTests {
    /// Four station processes on one job while a driver kills them, restarts the database
    /// server and cuts their connections: the job's guarantees must hold across all of it.
    @Suite(.serialized, .timeLimit(.minutes(10))) struct ChaosTests {
        static let rows = 400
        static let kills = 50

        /// The station processes, restarted with the same command after each kill.
        final class Stations: @unchecked Sendable {
            let batch: DatabaseBatch
            let arguments: [[String]]
            let environment: [String: String]
            var runs: [BackgroundRun]

            init(batch: DatabaseBatch, arguments: [[String]], environment: [String: String]) throws {
                self.batch = batch
                self.arguments = arguments
                self.environment = environment
                runs = try arguments.map { try batch.start($0, environment: environment) }
            }

            /// Kills station `index` with SIGKILL and starts it again, paused (SIGSTOP) like the
            /// others; whether it was running.
            func killAndRestart(_ index: Int) async throws -> Bool {
                let run = runs[index]
                guard run.isRunning else { return false }
                run.send(SIGKILL)
                let ended = await run.finish()
                runs[index] = try batch.start(arguments[index], environment: environment)
                runs[index].send(SIGSTOP)
                return ended.signalled
            }

            /// Stops every station where it is (SIGSTOP), or lets them go on (SIGCONT).
            func pause(_ paused: Bool) {
                for run in runs { run.send(paused ? SIGSTOP : SIGCONT) }
            }

            /// Waits for every station; their results.
            func finishAll() async -> [BatchResult] {
                var results: [BatchResult] = []
                for run in runs { results.append(await run.finish(timeout: .seconds(300))) }
                return results
            }

            /// Starts every station again.
            func restartAll() throws {
                runs = try arguments.map { try batch.start($0, environment: environment) }
            }
        }

        @Test(
            "SIGKILL a random station after each 20-80 ms of work (50 kills), restart the server twice, end connections: every row on exactly one tag"
        )
        func killsRestartsAndTerminations() async throws {
            try await PostgresTestServer.with { server, database in
                try await run(DatabaseBatch(folder: try BatchFolder(), database: database), server: server)
            }
        }

        func run(_ batch: DatabaseBatch, server: PostgresTestServer) async throws {
            let tags = try batch.folder.tagDirectory()
            let secret = "chaos: 0123456789abcdef"
            let environment = ["NDEFTOOL_MASTER_SECRET": secret]
            let plan = [
                "batch", "uri", BatchDatabaseTests.template, "--from", "1", "--to", String(Self.rows), "--job", "chaos",
                "--lock", "--derive-passwords", "--lease", "5",
            ]
            let code = try await batch.lockCode(plan, environment: environment)
            let creator = try await batch.run(
                plan + ["--confirm", code, "-q", "--reader", "sim:ntag215?supply=1&seed=100&file=\(tags)"],
                environment: environment)
            #expect(creator.status == 75, "\(creator.output)\(creator.error)")
            // A few milliseconds per tag command, so that the job outlasts the driver's kills.
            let stations = try Stations(
                batch: batch,
                arguments: (1...4).map { number in
                    [
                        "batch", "--join", "chaos", "--confirm", code, "-q", "--reader",
                        "sim:ntag215?supply=130&seed=\(number)&latency-ms=4&file=\(tags)",
                    ]
                }, environment: environment)
            var random = SeededRandom(seed: 0xC4A0_5001)
            var kills = 0
            // After these kills: the server restarted, or the stations' connections ended.
            var faults: [Int: String] = [
                10: "terminate", 15: "restart", 25: "terminate", 35: "restart", 45: "terminate",
            ]
            // The stations work only between the driver's steps (paused while it kills, restarts
            // and ends connections), so however slowly the driver is scheduled the 50 kills land
            // within the job: 50 windows of 20-80 ms are a fraction of its 400 rows. Each window
            // ends on a dispatch timer, not on a task of the cooperative pool, which a busy run
            // may wake seconds late.
            stations.pause(true)
            while kills < Self.kills {
                stations.pause(false)
                await after(.milliseconds(Int.random(in: 20...80, using: &random))) { stations.pause(true) }
                if try await stations.killAndRestart(Int.random(in: 0..<4, using: &random)) { kills += 1 }
                if stations.runs.allSatisfy({ !$0.isRunning }) { break }
                switch faults.removeValue(forKey: kills) {
                case "restart":
                    try await server.restart()
                case "terminate":
                    // The stations run until one holds a connection (after a restart they
                    // reconnect), then every station connection is ended.
                    stations.pause(false)
                    let connected = await eventually {
                        let count = try? await PostgresTest.psql(
                            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'ndeftool station'",
                            url: server.url)
                        return (count?.first.flatMap { Int($0) } ?? 0) > 0
                    }
                    #expect(connected, "no station reconnected")
                    stations.pause(true)
                    let ended = try await PostgresTest.psql(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            + "WHERE application_name = 'ndeftool station'", url: server.url)
                    #expect((ended.first.flatMap { Int($0) } ?? 0) > 0, "no station connection to end")
                default:
                    break
                }
            }
            stations.pause(false)
            #expect(kills >= Self.kills, "the job ended after \(kills) kills")
            #expect(faults.isEmpty, "faults not injected: \(faults)")
            // Then the stations run to the end; a station whose supply ran out while rows waited
            // for tags of its own supply brings them back when it starts again.
            for _ in 0..<5 {
                let results = await stations.finishAll()
                for result in results {
                    #expect(
                        [0, 75, 80].contains(result.status) && !result.signalled, "\(result.status): \(result.error)")
                }
                if try await batch.doneRows(job: "chaos").count == Self.rows { break }
                try stations.restartAll()
            }
            let byRow = try await batch.doneRows(job: "chaos")
            #expect(byRow.count == Self.rows)
            try DatabaseBatch.expectTags(in: tags, match: byRow, rows: Self.rows)
            // Kills landed inside tags' steps: rows claimed again (a new fencing token) and finished.
            let reclaimed = try await batch.database.value(
                "SELECT count(*) FROM ndeftool_rows WHERE lease_generation > 1")
            #expect((Int(reclaimed) ?? 0) > 0, "no row was claimed twice")
            // Locked, each with its own password.
            let derivation = try TagPasswordDerivation(masterSecret: Array(secret.utf8))
            for (row, uid) in byRow {
                let file = tags + uid + ".nfc"
                #expect(try BatchFiles.memory(ofTagFile: file).ndefStatus.status == .readOnly, "row \(row)")
                #expect(
                    try BatchFiles.dump(ofTagFile: file).password == (try derivation.derive(uid: hex(uid))).password,
                    "row \(row)")
            }
            // The report agrees with the tags.
            let report = try await batch.json(["batch", "report", "--job", "chaos", "--json"])
            let entries = try #require(report["rows"] as? [[String: Any]])
            #expect(entries.count == Self.rows)
            for entry in entries {
                let row = try #require(entry["row"] as? Int)
                #expect(entry["uid"] as? String == byRow[row], "row \(row)")
                #expect(entry["outcome"] as? String == "written+locked+password", "row \(row)")
            }
        }
    }
}
