import Testing

@testable import Provisioning

/// The compact index of done rows gives back exactly what the journal said.
@Suite struct DoneRowTests {
    @Test(
        "A UID of any length comes back from its key; keys of different UIDs differ",
        arguments: [1, 4, 7, 10, 15, 16, 20])
    func tagKeys(length: Int) {
        let uid = (0..<length).map { UInt8(truncatingIfNeeded: 0xF1 &* $0 &+ 4) }
        #expect(TagKey(uid).bytes == uid)
        #expect(TagKey(uid) != TagKey(uid + [0]))
        #expect(TagKey([0] + uid) != TagKey(uid + [0]))
    }

    @Test("Journal times are kept as digits and come back as written; other text stays text")
    func times() {
        for text in [
            JournalClock.now(), "2026-11-30T04:47:01.047Z", "0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
        ] {
            guard case .digits = StoredTime(text) else {
                Issue.record("\(text) is not kept as digits")
                continue
            }
            #expect(StoredTime(text).text == text)
        }
        for text in ["t3", "", "2026-11-30T04:47:01.047+", "2026-11-30 04:47:01.047Z", "２026-11-30T04:47:01.047Z"] {
            #expect(StoredTime(text).text == text)
        }
    }

    @Test("A job's done rows read back equal to the full status, and the duplicate check still finds their tags")
    func stateKeepsDoneRows() throws {
        let plan = try ProvisioningPlan.counter(from: 1, to: 3)
        let template = try MessageTemplate("text {counter}", fields: plan.fields)
        var state = ProvisioningState(header: JournalHeader(plan: plan, template: template))
        let uids: [[UInt8]] = [[0x04, 1, 2, 3, 4, 5, 6], [0x08, 9, 9, 9], Array(repeating: 0xAB, count: 18)]
        let digest = [UInt8](repeating: 7, count: 32)
        for (index, uid) in uids.enumerated() {
            let row = index + 1
            try state.apply(.claimed(row: row, reader: "r", time: "t"))
            try state.apply(.writing(row: row, uid: uid, digest: digest, time: "t"))
            try state.apply(.written(row: row, uid: uid, time: "t"))
            if row != 2 { try state.apply(.locked(row: row, uid: uid, time: "t")) }
            try state.apply(
                .done(row: row, uid: uid, outcome: row == 2 ? "written" : "written+locked", time: JournalClock.now()))
        }
        #expect(state.doneRows == [1, 2, 3])
        #expect(state.doneCount == 3)
        for (index, uid) in uids.enumerated() {
            let status = state.status(of: index + 1)
            #expect(status.stage == .done)
            #expect(status.uid == uid)
            #expect(status.steps == (index == 1 ? [.written] : [.written, .locked]))
            #expect(status.outcome == (index == 1 ? "written" : "written+locked"))
            #expect(state.assignment(forUID: uid) == .alreadyDone(row: index + 1))
        }
        #expect(state.pendingRows().isEmpty)
        #expect(throws: ProvisioningError(.inconsistentJournal, "")) {
            try state.apply(.claimed(row: 1, reader: "r", time: "t"))
        }
    }
}
