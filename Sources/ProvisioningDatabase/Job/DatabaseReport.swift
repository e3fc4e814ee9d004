import HexText
import JSONSupport
import NDEF
import Provisioning

/// A job's report from its database: the file journal's report (``Provisioning/ProvisioningReport``)
/// with each row's station.
enum DatabaseReport {
    /// The report of `job` on `connection`, with the plan values of `fields`.
    static func read(
        job: DatabaseJob, fields: [String], _ connection: isolated PostgresConnection
    ) throws(DatabaseError) -> ProvisioningReport {
        let rows = try connection.execute(
            """
            SELECT row_number, uid, state, outcome, reason, station, plan_values::text AS plan_values,
                   (state = 'claimed' AND lease_expires_at <= now()) AS lapsed,
                   to_char(coalesce(done_at, updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time
            FROM ndeftool_rows WHERE job_id = $1 ORDER BY row_number
            """, [String(job.id)])
        var entries: [ProvisioningReport.Entry] = []
        entries.reserveCapacity(rows.count)
        for row in rows.rows {
            guard let number = row.int("row_number"), let state = row.text("state") else {
                throw DatabaseError(.unexpectedData, "a row of job \(job.name) lacks its number or state")
            }
            let outcome: String =
                switch state {
                case "done": row.text("outcome") ?? "done"
                case "claimed": "pending"
                default: state
                }
            var values: [String] = []
            if !fields.isEmpty, let text = row.text("plan_values") {
                let object = try DatabaseJob.parse(text, "plan_values")
                values = fields.map { object[$0]?.string ?? "" }
            }
            let pendingUntouched = state == "pending" && row.text("reason") == nil
            entries.append(
                ProvisioningReport.Entry(
                    row: number, uid: row.bytes("uid").map { Hex.encode($0, uppercase: true) } ?? "",
                    outcome: outcome, time: pendingUntouched ? "" : row.text("time") ?? "",
                    reason: state == "done" ? "" : row.text("reason") ?? "", values: values,
                    station: row.bool("lapsed") == true || state == "pending" ? "" : row.text("station") ?? ""))
        }
        return ProvisioningReport(entries: entries, fields: fields, includesStations: true)
    }
}
