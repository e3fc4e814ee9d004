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

/// Only a journal, or what a run stopped while creating one leaves, is ever taken for a journal.
@Suite struct ForeignFileTests {
    @Test(
        "open and resume refuse a file that does not begin as a journal (notAJournal) and leave it as it is",
        arguments: [
            Array("0123456789abcdef0123456789ABCDEF".utf8), Array("hello\n".utf8), [0x7B, 0x0A],
            Array(#"{"event":"job","format":"other"}"#.utf8) + [0x0A],
        ])
    func foreignFile(content: [UInt8]) throws {
        let job = try CounterJob(rows: 2)
        writeFile(job.path, content)
        #expect(throws: ProvisioningError(.notAJournal, "")) {
            try ProvisioningJournal.open(at: job.path, header: job.header)
        }
        #expect(throws: ProvisioningError(.notAJournal, "")) {
            try ProvisioningJournal.resume(at: job.path, header: job.header)
        }
        #expect(throws: ProvisioningError(.notAJournal, "")) { try ProvisioningJournal.recover(job.path) }
        #expect(readFile(job.path) == content)
    }

    @Test("Nothing, zeros (and line feeds) and the beginning of a header are a journal torn at its creation")
    func tornAtCreation() throws {
        for content in [
            [], [0, 0], [0, 0, 0x0A], Array(#"{"event":"jo"#.utf8), Array(#"{"event":"job","format":"ndeftool-p"#.utf8),
        ]
            as [[UInt8]]
        {
            #expect(throws: ProvisioningError(.missingJournalHeader, "")) {
                try ProvisioningJournal.recover(bytes: content)
            }
        }
    }
}
