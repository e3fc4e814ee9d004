import Foundation
import TestSupport
import Testing

extension BatchBinaryTests {
    /// A simulated tag kept in a file is in one reader's field at a time, as a real tag is: while
    /// one process holds it (here a batch waiting for its next tag), a second process sees no
    /// tag (75 with `--wait 0`; a longer `--wait` waits for it), and neither a write nor a lock
    /// reaches the tag; once the first process ends, the second finds the tag as the first left
    /// it.
    @Suite struct SimulatedTagLockTests {
        @Test("A tag file held by a running batch: another write or lock sees no tag (75); after it, the tag is free")
        func oneFieldAtATime() async throws {
            let job = try BatchFolder()
            let tag = job.path("tag.nfc")
            let holder = try job.start([
                "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "2", "--journal",
                "job.journal", "--reader", "sim:ntag215?file=\(tag)", "--wait", "600",
            ])
            // The batch writes row 1, then keeps the reader open, waiting for another tag.
            let wrote = await holder.child.waitForOutput { _, error in error.contains("Row 1: tag") }
            #expect(wrote, "\(holder.child.errorText())")
            let before = try Data(contentsOf: URL(fileURLWithPath: tag))

            let write = try await job.run([
                "write", "uri", "https://example.com/other", "--reader", "sim:ntag215?file=\(tag)", "--wait", "0",
            ])
            #expect(write.status == 75, "\(write.error)")
            #expect(write.error.contains("no tag"), "\(write.error)")
            let lock = try await job.run([
                "lock", "--confirm", "000-000", "--reader", "sim:ntag215?file=\(tag)", "--wait", "0",
            ])
            #expect(lock.status == 75, "\(lock.error)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: tag)) == before, "the held tag changed")

            holder.send(SIGINT)
            let ended = await holder.finish()
            #expect(ended.status == 75 || ended.status == 130, "\(ended.output)\(ended.error)")
            #expect(!FileManager.default.fileExists(atPath: job.path(".tag.nfc.lock")), "the lock file was left")
            let read = try await job.run(["read", "--reader", "sim:ntag215?file=\(tag)", "--wait", "0"])
            #expect(read.output.contains("URI: https://example.com/t/1"), "\(read.output)\(read.error)")
            let again = try await job.run([
                "write", "uri", "https://example.com/other", "--reader", "sim:ntag215?file=\(tag)", "--wait", "0",
            ])
            #expect(again.status == 0, "\(again.error)")
        }
    }
}
