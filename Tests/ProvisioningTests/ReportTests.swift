import Provisioning
import Testing

@Suite("Final reports as CSV and JSON")
struct ReportTests {
    private func sampleState() throws -> ProvisioningState {
        var state = ProvisioningState(header: SampleJob.header)
        for event in SampleJob.events { try state.apply(event) }
        return state
    }

    @Test func csvReport() throws {
        let report = ProvisioningReport(state: try sampleState())
        let lines = report.csv.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "row,uid,outcome,time,reason")
        #expect(lines[1] == "1,04A1A1A1A1A1A1,written+locked,t7,")
        #expect(lines[2] == "2,04B2B2B2B2B2B2,written,t10,")
        #expect(lines[3] == "3,,failed,t16,tag too small")
        #expect(lines[4] == "4,04C3C3C3C3C3C3,failed,t14,\"tag removed \"\"early\"\"\nduring write\"")
        #expect(lines[5] == "5,04E5E5E5E5E5E5,written,t19,")
        #expect(lines[6] == "6,,pending,,")
        #expect(report.tally == ["written+locked": 1, "written": 2, "failed": 2, "pending": 1])
    }

    /// The CSV report reads back through the plan parser (RFC 4180 both ways).
    @Test func csvReportParsesAsAPlan() throws {
        let plan = try ProvisioningPlan.csv(ProvisioningFixtures.load("tags.csv"))
        var state = ProvisioningState(
            header: JournalHeader(
                planDigest: plan.digest, planRowCount: plan.count, template: "t", options: [:], time: "t"))
        try state.apply(.claimed(row: 2, reader: "r", time: "a"))
        let report = ProvisioningReport(state: state, plan: plan, fields: ["serial", "label"])
        // "row" and "uid" are reserved plan field names: rename them for reading back.
        let csv = "number,tag" + report.csv.dropFirst("row,uid".count)
        let parsed = try ProvisioningPlan.csv(Array(csv.utf8))
        #expect(parsed.fields == ["number", "tag", "outcome", "time", "reason", "serial", "label"])
        #expect(parsed.row(2)?.values["label"] == "Say \"hi\"")
        #expect(parsed.row(3)?.values["label"] == "two\r\nlines")
        #expect(parsed.row(2)?.values["outcome"] == "pending")
    }

    /// OWASP "CSV Injection": a cell a spreadsheet would take for a formula gets a `'` in front
    /// and is quoted; the JSON report keeps the value as it is.
    @Test func formulaCellsAreNeutralized() throws {
        let text = "label\r\n\"=HYPERLINK(\"\"http://x\"\")\"\r\n+1\r\n-2\r\n@SUM(A1)\r\nplain\r\na=b\r\n"
        let plan = try ProvisioningPlan.csv(Array(text.utf8))
        let state = ProvisioningState(
            header: JournalHeader(
                planDigest: plan.digest, planRowCount: plan.count, template: "t", options: [:], time: "t"))
        let report = ProvisioningReport(state: state, plan: plan, fields: ["label"])
        let cells = report.csv.split(separator: "\r\n").dropFirst().compactMap {
            $0.split(separator: ",", maxSplits: 5).last
        }
        #expect(cells == [#""'=HYPERLINK(""http://x"")""#, #""'+1""#, #""'-2""#, #""'@SUM(A1)""#, "plain", "a=b"])
        #expect(report.json.contains(#""label":"=HYPERLINK(\"http://x\")""#))
    }

    @Test func jsonReport() throws {
        let json = ProvisioningReport(state: try sampleState()).json
        #expect(json.hasPrefix(#"{"rows":[{"row":1,"uid":"04A1A1A1A1A1A1","outcome":"written+locked","time":"t7"},"#))
        #expect(json.contains(#""tags":{"04A1A1A1A1A1A1":1,"04B2B2B2B2B2B2":2,"04C3C3C3C3C3C3":4,"04E5E5E5E5E5E5":5}"#))
        #expect(json.contains(#""reason":"tag removed \"early\"\nduring write""#))
        #expect(json.hasSuffix(#""tally":{"failed":2,"pending":1,"written":2,"written+locked":1}}"#))
        // It is JSON: each line of a JSON Lines plan must be an object, which it is.
        #expect(throws: ProvisioningError(.malformedPlan, "")) { try ProvisioningPlan.jsonLines(Array(json.utf8)) }
    }
}
