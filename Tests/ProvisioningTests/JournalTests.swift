import Provisioning
import SystemSupport
import TestSupport
import Testing

/// A realistic job: 6 rows over two readers, with a lock, a release, a failure after the tag
/// was bound, a failure before, and a row never reached.
enum SampleJob {
    static let header = JournalHeader(
        planDigest: Array(repeating: 0xAB, count: 32), planRowCount: 6, template: "uri https://x.test/{serial}",
        options: ["lock": "yes", "password": "derived"], time: "2025-01-01T00:00:00.000Z")
    static let tagA = hex("04A1A1A1A1A1A1")
    static let tagB = hex("04B2B2B2B2B2B2")
    static let tagC = hex("04C3C3C3C3C3C3")
    static let tagD = hex("04D4D4D4D4D4D4")
    static let tagE = hex("04E5E5E5E5E5E5")

    static func digest(_ row: Int) -> [UInt8] { Array(repeating: UInt8(row), count: 32) }

    static let events: [JournalEvent] = [
        .claimed(row: 1, reader: "pcsc:0", time: "t1"),
        .claimed(row: 2, reader: "pcsc:1", time: "t2"),
        .writing(row: 1, uid: tagA, digest: digest(1), time: "t3"),
        .writing(row: 2, uid: tagB, digest: digest(2), time: "t4"),
        .written(row: 1, uid: tagA, time: "t5"),
        .locked(row: 1, uid: tagA, time: "t6"),
        .done(row: 1, uid: tagA, outcome: "written+locked", time: "t7"),
        .claimed(row: 3, reader: "pcsc:0", time: "t8"),
        .written(row: 2, uid: tagB, time: "t9"),
        .done(row: 2, uid: tagB, outcome: "written", time: "t10"),
        .claimed(row: 4, reader: "pcsc:1", time: "t11"),
        .released(row: 3, time: "t12"),
        .writing(row: 4, uid: tagC, digest: digest(4), time: "t13"),
        .failed(row: 4, uid: tagC, reason: "tag removed \"early\"\nduring write", time: "t14"),
        .claimed(row: 3, reader: "pcsc:0", time: "t15"),
        .failed(row: 3, uid: tagD, reason: "tag too small", time: "t16"),
        .claimed(row: 5, reader: "pcsc:1", time: "t17"),
        .writing(row: 5, uid: tagE, digest: digest(5), time: "t18"),
        .written(row: 5, uid: tagE, time: "t19"),
    ]
}

@Suite("The provisioning journal: append, replay, torn lines, crashes at every byte")
struct JournalTests {
    /// This test's folder (each test has its own instance of the suite), removed after it.
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("provisioning") }

    private func writeJob(_ events: [JournalEvent] = SampleJob.events) throws -> String {
        let path = folder.path("job.journal")
        let journal = try ProvisioningJournal.create(at: path, header: SampleJob.header)
        for event in events { try journal.append(event) }
        journal.close()
        return path
    }

    @Test func appendAndReplay() throws {
        let path = try writeJob()
        let text = String(decoding: readFile(path), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == SampleJob.events.count + 1)
        #expect(lines[0].hasPrefix(#"{"event":"job","format":"ndeftool-provisioning-journal","version":1,"#))
        #expect(!text.contains("secret"))
        #expect(
            lines[3]
                == #"{"event":"writing","row":1,"uid":"04A1A1A1A1A1A1","digest":"# + "\""
                + String(repeating: "01", count: 32) + #"","time":"t3"}"#)
        #expect(
            lines[14]
                == #"{"event":"failed","row":4,"uid":"04C3C3C3C3C3C3","reason":"tag removed \"early\"\nduring write","time":"t14"}"#
        )
        let state = try ProvisioningJournal.recover(path)
        #expect(state.header == SampleJob.header)
        #expect(state.doneRows == [1, 2])
        #expect(state.failedRows == [3, 4])
        #expect(state.unfinishedRows == [4, 5])
        #expect(state.claimedRows == [])
        #expect(state.pendingRows() == [6])
        #expect(state.pendingRows(includingFailed: true) == [3, 6])
        #expect(state.assignment(forUID: SampleJob.tagA) == .alreadyDone(row: 1))
        #expect(state.assignment(forUID: SampleJob.tagC) == .unfinished(row: 4))
        #expect(state.assignment(forUID: SampleJob.tagD) == .fresh)
        #expect(state.status(of: 1).steps == [.written, .locked])
        #expect(state.resumeAction(row: 4, currentDigest: SampleJob.digest(4)) == .markWritten)
        #expect(state.resumeAction(row: 4, currentDigest: SampleJob.digest(9)) == .rewrite)
        #expect(state.resumeAction(row: 4, currentDigest: nil) == .rewrite)
        #expect(state.resumeAction(row: 5, currentDigest: nil) == .continueSteps(completed: [.written]))
    }

    @Test func refusedEventsAreNotWritten() async throws {
        let path = try writeJob()
        let journal = try await whenFree { try ProvisioningJournal.resume(at: path, header: SampleJob.header) }
        let size = readFile(path).count
        // A tag already done never gets another row; a bound row never goes to another tag.
        try journal.append(.claimed(row: 6, reader: "pcsc:0", time: "x"))
        #expect(throws: ProvisioningError(.refusedEvent, "")) {
            try journal.append(.writing(row: 6, uid: SampleJob.tagA, digest: SampleJob.digest(6), time: "x"))
        }
        try journal.append(.claimed(row: 4, reader: "pcsc:1", time: "x"))
        #expect(throws: ProvisioningError(.refusedEvent, "")) {
            try journal.append(.writing(row: 4, uid: SampleJob.tagD, digest: SampleJob.digest(4), time: "x"))
        }
        #expect(throws: ProvisioningError(.refusedEvent, "")) {
            try journal.append(.claimed(row: 1, reader: "pcsc:1", time: "x"))
        }
        #expect(throws: ProvisioningError(.refusedEvent, "")) {
            try journal.append(.claimed(row: 6, reader: "pcsc:1", time: "x"))
        }
        #expect(throws: ProvisioningError(.refusedEvent, "")) {
            try journal.append(.done(row: 6, uid: SampleJob.tagD, outcome: "written", time: "x"))
        }
        #expect(throws: ProvisioningError(.refusedEvent, "")) {
            try journal.append(.claimed(row: 7, reader: "pcsc:1", time: "x"))
        }
        let lines = readFile(path).count - size
        #expect(lines > 0)
        #expect(String(decoding: readFile(path), as: UTF8.self).split(separator: "\n").count == 20 + 1 + 2)
    }

    @Test func resumeRefusesAnotherJob() async throws {
        let path = try writeJob()
        var other = SampleJob.header
        other.template = "uri https://y.test/{serial}"
        #expect(throws: ProvisioningError(.journalMismatch, "")) {
            try ProvisioningJournal.resume(at: path, header: other)
        }
        other = SampleJob.header
        other.time = "later"
        _ = try await whenFree { try ProvisioningJournal.resume(at: path, header: other) }
    }

    @Test func createRefusesAnExistingFile() throws {
        let path = try writeJob([])
        #expect(throws: ProvisioningError(.io, "")) {
            try ProvisioningJournal.create(at: path, header: SampleJob.header)
        }
    }

    @Test func tornLastLineIsIgnoredAndTruncatedOnResume() async throws {
        let path = try writeJob()
        let complete = readFile(path)
        writeFile(path, complete + Array(#"{"event":"done","row":5,"uid":"04E5"#.utf8))
        let state = try ProvisioningJournal.recover(path)
        #expect(state.doneRows == [1, 2])
        let journal = try await whenFree { try ProvisioningJournal.resume(at: path, header: SampleJob.header) }
        let after = readFile(path)
        #expect(Array(after.prefix(complete.count)) == complete)
        #expect(String(decoding: after[complete.count...], as: UTF8.self).hasPrefix(#"{"event":"resumed","time":""#))
        #expect(journal.state.doneRows == [1, 2])
    }

    @Test func zeroFilledLastLineIsTorn() throws {
        let path = try writeJob()
        writeFile(path, readFile(path) + [0, 0, 0, 0x0A])
        #expect(try ProvisioningJournal.recover(path).doneRows == [1, 2])
    }

    @Test func corruptionBeforeTheLastLineNamesTheLine() async throws {
        let path = try writeJob()
        var lines = String(decoding: readFile(path), as: UTF8.self).split(separator: "\n").map(String.init)
        lines[4] = "{\"event\":\"written\",\"row\":1"
        writeFile(path, Array((lines.joined(separator: "\n") + "\n").utf8))
        let error = #expect(throws: ProvisioningError(.corruptJournal, "")) { try ProvisioningJournal.recover(path) }
        #expect(error?.line == 5)
        lines[4] = #"{"event":"done","row":1,"uid":"04A1A1A1A1A1A1","outcome":"x","time":"x"}"#
        lines[5] = #"{"event":"done","row":1,"uid":"04A1A1A1A1A1A1","outcome":"x","time":"x"}"#
        writeFile(path, Array((lines.joined(separator: "\n") + "\n").utf8))
        let inconsistent = #expect(throws: ProvisioningError(.inconsistentJournal, "")) {
            try ProvisioningJournal.recover(path)
        }
        #expect(inconsistent?.line == 5)
    }

    @Test func openCreatesOrResumesOrRepairsATornHeader() async throws {
        let path = folder.path("open.journal")
        _ = try ProvisioningJournal.open(at: path, header: SampleJob.header)
        let header = readFile(path)
        writeFile(path, Array(header.prefix(20)))
        let journal = try await whenFree { try ProvisioningJournal.open(at: path, header: SampleJob.header) }
        #expect(readFile(path) == header)
        try journal.append(.claimed(row: 1, reader: "r", time: "t"))
        journal.close()
        let resumed = try await whenFree { try ProvisioningJournal.open(at: path, header: SampleJob.header) }
        #expect(resumed.state.pendingRows() == [1, 2, 3, 4, 5, 6])
    }

    /// The events a journal prefix holds: its complete lines (the header excluded).
    private func completeEvents(in prefix: ArraySlice<UInt8>) -> Int {
        max(0, prefix.filter { $0 == 0x0A }.count - 1)
    }

    /// A crash at every byte offset of the sample job: recovery always yields the state of the
    /// complete lines before the crash, no row is done twice or lost, a claim without a tag
    /// returns to the pool, and finishing the job from there provisions every row exactly once.
    @Test func crashAtEveryByteOffset() throws {
        let path = try writeJob()
        let bytes = readFile(path)
        let headerLength = (bytes.firstIndex(of: 0x0A) ?? 0) + 1
        var previousDone: [Int: [UInt8]] = [:]
        for offset in 0...bytes.count {
            let prefix = Array(bytes.prefix(offset))
            guard offset >= headerLength else {
                #expect(throws: ProvisioningError(.missingJournalHeader, "")) {
                    try ProvisioningJournal.recover(bytes: prefix)
                }
                continue
            }
            let recovery = try ProvisioningJournal.recover(bytes: prefix)
            let count = completeEvents(in: prefix[...])
            #expect(recovery.eventCount == count)
            #expect(recovery.validLength + recovery.discardedBytes == offset)
            var expected = ProvisioningState(header: SampleJob.header)
            for event in SampleJob.events.prefix(count) { try expected.apply(event) }
            let state = recovery.state
            #expect(state.doneRows == expected.doneRows)
            #expect(state.unfinishedRows == expected.unfinishedRows)
            #expect(state.claimedRows.isEmpty)
            #expect(Set(state.pendingRows()) == Set(expected.pendingRows() + expected.claimedRows))
            // No row done twice, no row lost: done rows only grow and keep their tag.
            var done: [Int: [UInt8]] = [:]
            for row in state.doneRows { done[row] = state.status(of: row).uid }
            for (row, uid) in previousDone { #expect(done[row] == uid) }
            #expect(Set(done.values).count == done.count)
            previousDone = done
            try finish(state, tagHoldsIntendedMessage: offset % 2 == 0, offset: offset)
        }
    }

    /// Finishes a recovered job in memory and checks every row ends done exactly once.
    private func finish(_ recovered: ProvisioningState, tagHoldsIntendedMessage: Bool, offset: Int) throws {
        var state = recovered
        let doneBefore = Dictionary(uniqueKeysWithValues: state.doneRows.map { ($0, state.status(of: $0).uid) })
        try state.apply(.resumed(time: "r"))
        for row in state.unfinishedRows {
            let status = state.status(of: row)
            let uid = try #require(status.uid)
            #expect(state.assignment(forUID: uid) == .unfinished(row: row))
            try state.apply(.claimed(row: row, reader: "resume", time: "r"))
            let current = tagHoldsIntendedMessage ? status.digest : nil
            switch state.resumeAction(row: row, currentDigest: current) {
            case .markWritten:
                try state.apply(.written(row: row, uid: uid, time: "r"))
            case .rewrite:
                let other = try #require(status.digest)
                try state.apply(.writing(row: row, uid: uid, digest: other, time: "r"))
                try state.apply(.written(row: row, uid: uid, time: "r"))
            case .continueSteps(let completed):
                #expect(completed.contains(.written))
            }
            try state.apply(.done(row: row, uid: uid, outcome: "resumed", time: "r"))
        }
        for row in state.pendingRows(includingFailed: true) {
            let uid = [0x05, UInt8(row), UInt8(truncatingIfNeeded: offset), UInt8(truncatingIfNeeded: offset >> 8)]
            #expect(state.assignment(forUID: uid) == .fresh)
            try state.apply(.claimed(row: row, reader: "resume", time: "r"))
            try state.apply(.writing(row: row, uid: uid, digest: SampleJob.digest(row), time: "r"))
            try state.apply(.written(row: row, uid: uid, time: "r"))
            try state.apply(.done(row: row, uid: uid, outcome: "written", time: "r"))
        }
        #expect(state.doneRows == Array(1...6), "offset \(offset)")
        let uids = state.doneRows.compactMap { state.status(of: $0).uid }
        #expect(Set(uids).count == 6)
        for (row, uid) in doneBefore { #expect(state.status(of: row).uid == uid) }
    }

    /// The same crash through files at every line boundary and one byte either side: resume
    /// truncates the torn tail, and what it leaves replays to the same state.
    @Test func resumeAfterCrashNearEveryLineBoundary() async throws {
        let path = try writeJob()
        let bytes = readFile(path)
        let headerLength = (bytes.firstIndex(of: 0x0A) ?? 0) + 1
        var offsets: Set<Int> = []
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            offsets.formUnion([index, index + 1, index + 2])
        }
        for offset in offsets.sorted() where offset >= headerLength && offset <= bytes.count {
            let prefix = Array(bytes.prefix(offset))
            writeFile(path, prefix)
            let before = try ProvisioningJournal.recover(bytes: prefix)
            let journal = try await whenFree { try ProvisioningJournal.resume(at: path, header: SampleJob.header) }
            journal.close()
            let after = readFile(path)
            #expect(Array(after.prefix(before.validLength)) == Array(prefix.prefix(before.validLength)))
            let replayed = try ProvisioningJournal.recover(path)
            #expect(replayed.doneRows == before.state.doneRows)
            #expect(replayed.unfinishedRows == before.state.unfinishedRows)
            #expect(replayed.pendingRows() == before.state.pendingRows())
        }
    }
}
