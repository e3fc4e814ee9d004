import Testing

@testable import Provisioning

/// One run at a time holds a journal (an exclusive `flock` from before it is read).
@Suite struct JournalLockTests {
    @Test("A journal in use is refused with journalInUse by open, resume and a second create; free again once closed")
    func inUse() async throws {
        let job = try CounterJob(rows: 2)
        let first = try ProvisioningJournal.create(at: job.path, header: job.header)
        #expect(throws: ProvisioningError(.journalInUse, "")) {
            try ProvisioningJournal.open(at: job.path, header: job.header)
        }
        #expect(throws: ProvisioningError(.journalInUse, "")) {
            try ProvisioningJournal.resume(at: job.path, header: job.header)
        }
        try first.append(.claimed(row: 1, reader: "r1", time: "t"))
        first.close()
        let second = try await whenFree { try ProvisioningJournal.open(at: job.path, header: job.header) }
        #expect(second.state.claimedRows.isEmpty)
        second.close()
    }

    @Test("A journal whose header never landed is replaced by open, unless another run holds it")
    func tornHeader() async throws {
        let job = try CounterJob(rows: 2)
        writeFile(job.path, Array(#"{"event":"job","for"#.utf8))
        let holder = try ProvisioningJournal.open(at: job.path, header: job.header)
        #expect(holder.state.rowCount == 2)
        holder.close()
        writeFile(job.path, [0, 0, 0, 0])
        let replaced = try await whenFree { try ProvisioningJournal.open(at: job.path, header: job.header) }
        #expect(throws: ProvisioningError(.journalInUse, "")) {
            try ProvisioningJournal.open(at: job.path, header: job.header)
        }
        replaced.close()
    }
}
