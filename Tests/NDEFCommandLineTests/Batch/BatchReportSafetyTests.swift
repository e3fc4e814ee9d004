import Foundation
import TestSupport
import Testing

extension BatchBinaryTests {
    /// The CSV report opened in a spreadsheet runs nothing: plan values that begin like a formula
    /// are written with a `'` in front (OWASP, "CSV Injection"); the JSON report keeps them.
    @Suite struct BatchReportSafetyTests {
        @Test("Plan values starting with = + - @ are neutralized in the CSV report, kept in the JSON report")
        func formulaValues() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            try job.folder.file("plan.csv", text: "name\n=1+2\n+3\n-4\n@SUM(A1)\nplain\n")
            let result = try await job.run([
                "batch", "text", "{name}", "--plan", "plan.csv", "--journal", "job.journal", "-q",
                "--reader", "sim:ntag215?supply=5&seed=8&file=\(tags)",
            ])
            #expect(result.status == 0, "\(result.error)")
            let csv = String(decoding: try job.folder.read("job.report.csv"), as: UTF8.self)
            let names = csv.split(separator: "\r\n").dropFirst().compactMap { $0.split(separator: ",").last }
            #expect(names == [#""'=1+2""#, #""'+3""#, #""'-4""#, #""'@SUM(A1)""#, "plain"], "\(csv)")
            let json = String(decoding: try job.folder.read("job.report.json"), as: UTF8.self)
            #expect(json.contains(#""name":"=1+2""#), "\(json)")
        }
    }
}
