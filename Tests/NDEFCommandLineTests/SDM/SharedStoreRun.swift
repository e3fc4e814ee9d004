import Foundation
import TestSupport
import Testing

/// Four `ndeftool sdm verify --database DB --accept-log --json -` processes fed overlapping
/// streams of the same 2,000 URLs (50 tags x 40 counters: tag by tag, the same reversed,
/// counter by counter, the same reversed), through named pipes, and what must hold afterwards:
///
/// - every process answers every URL, each answer valid or a replay, and ends with 83;
/// - no tag's counter is accepted twice, across processes, and every tag's highest counter
///   exactly once;
/// - the accept log holds exactly the URLs the processes answered valid, and each tag's counters
///   rise in the log's order (its sequence, taken under the tag's row lock: the commit order);
/// - every tag's stored counter is its highest.
///
/// With a server to restart, the first half of every stream is answered, then the server
/// restarts while the third quarter is written, and the last quarter is written once it is
/// back: every process meets a lost connection and must ride it out.
struct SharedStoreRun {
    static let tagCount = 50
    static let counters = 40

    let database: TestDatabase

    func run(restarting server: PostgresTestServer?, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let folder = try TemporaryDirectory("sdm-shared")
        defer { folder.remove() }
        _ = try folder.file("master.hex", text: hexText(SUNTestTags.masterKey) + "\n")
        let tags = try SUNTestTags(count: Self.tagCount)
        let byTag = try tags.reads(counters: 1...Self.counters)
        let byCounter = (0..<Self.counters).flatMap { counter in
            (0..<Self.tagCount).map { byTag[$0 * Self.counters + counter] }
        }
        let streams = [byTag, byTag.reversed(), byCounter, byCounter.reversed()].map { $0.map(\.url) }
        let program = try #require(BinaryRunner.executable, sourceLocation: sourceLocation)
        var pipes: [FIFOWriter] = []
        var processes: [ChildProcess] = []
        for index in streams.indices {
            let pipe = try FIFOWriter(path: folder.path("urls-\(index).fifo"))
            pipes.append(pipe)
            processes.append(
                try ChildProcess(
                    program,
                    [
                        "sdm", "verify", "--database", database.uri, "--accept-log", "--json", "--master-key-file",
                        "master.hex", "-",
                    ],
                    environment: ["XDG_STATE_HOME": folder.path], directory: folder.url, input: .file(pipe.path)))
        }
        let total = streams[0].count
        func write(_ range: Range<Int>) async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (pipe, stream) in zip(pipes, streams) {
                    group.addTask { try await pipe.write(lines: Array(stream[range])) }
                }
                try await group.waitForAll()
            }
        }
        if let server {
            try await write(0..<(total / 2))
            for process in processes {
                let answered = await process.waitForOutput(within: .seconds(300)) { output, _ in
                    output.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } >= total / 2
                }
                #expect(answered, "the first half answered", sourceLocation: sourceLocation)
            }
            async let restarted: Void = server.restart()
            try await write((total / 2)..<(total * 3 / 4))
            try await restarted
            try await write((total * 3 / 4)..<total)
        } else {
            try await write(0..<total)
        }
        for pipe in pipes { pipe.close() }
        var answers: [[[String: Any]]] = []
        for (index, process) in processes.enumerated() {
            let result = await process.finish(timeout: .seconds(600), sourceLocation: sourceLocation)
            #expect(
                result.status == 83 && !result.signalled, "process \(index): \(result.error)",
                sourceLocation: sourceLocation)
            #expect(result.error.isEmpty, "process \(index): \(result.error)", sourceLocation: sourceLocation)
            let lines = result.outputText.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(lines.count == total, "process \(index) answered every URL", sourceLocation: sourceLocation)
            answers.append(lines)
        }
        try await check(answers, sourceLocation: sourceLocation)
    }

    /// The assertions on the processes' answers and the database.
    private func check(_ answers: [[[String: Any]]], sourceLocation: SourceLocation) async throws {
        var acceptedTimes: [String: Int] = [:]
        for (index, lines) in answers.enumerated() {
            for line in lines {
                let key = "\(line["uid"] as? String ?? "?")/\(line["counter"] as? Int ?? -1)"
                if line["valid"] as? Bool == true {
                    acceptedTimes[key, default: 0] += 1
                } else {
                    let problem = line["problem"] as? String ?? ""
                    #expect(
                        problem.hasPrefix("replayed: counter "), "process \(index): \(problem)",
                        sourceLocation: sourceLocation)
                }
            }
        }
        #expect(acceptedTimes.values.allSatisfy { $0 == 1 }, "a counter accepted twice", sourceLocation: sourceLocation)
        let tags = try SUNTestTags(count: Self.tagCount)
        for uid in tags.uids.map({ hexText($0) }) {
            #expect(
                acceptedTimes["\(uid)/\(Self.counters)"] == 1, "\(uid): highest once", sourceLocation: sourceLocation)
        }
        let log = try await database.psql(
            "SELECT upper(encode(uid, 'hex')), counter FROM ndeftool_sun_accepts ORDER BY sequence")
        #expect(log.count == acceptedTimes.count, sourceLocation: sourceLocation)
        var last: [String: Int] = [:]
        var logged = Set<String>()
        for row in log {
            let parts = row.split(separator: "|").map(String.init)
            guard parts.count == 2, let counter = Int(parts[1]) else {
                Issue.record("log row \(row)", sourceLocation: sourceLocation)
                continue
            }
            logged.insert("\(parts[0])/\(counter)")
            #expect(
                counter > last[parts[0], default: -1], "\(row) after \(last[parts[0]] ?? -1)",
                sourceLocation: sourceLocation)
            last[parts[0]] = counter
        }
        #expect(
            logged == Set(acceptedTimes.keys), "the log is what the processes accepted", sourceLocation: sourceLocation)
        #expect(
            try await database.psql("SELECT count(*), min(counter), max(counter) FROM ndeftool_sun_counters")
                == ["\(Self.tagCount)|\(Self.counters)|\(Self.counters)"],
            sourceLocation: sourceLocation)
    }
}
