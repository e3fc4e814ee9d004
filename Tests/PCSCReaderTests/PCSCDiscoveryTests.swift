import NFCSession
import PCSCReader
import Testing

extension PCSCDaemonTests {
    /// Reader discovery against the test run's pcscd and its four vpcd readers.
    @Suite("Reader discovery through the real pcscd")
    struct Discovery {
        @Test("discover(timeout:) returns pcscd's readers when they are there")
        func discoverFindsTheReaders() async throws {
            // discover returns the readers as soon as pcscd lists any, and an empty list only when
            // the timeout passed with none: the readers in the answer show that it returned because
            // they were there, however long a busy machine took.
            let names = try await PCSCReaders.discover(timeout: .seconds(60))
            #expect(names == PCSCTestReaders.all, "discovery did not report the readers that are there")
        }

        @Test("readerList() starts with the whole list of readers")
        func liveListStartsWithTheReaders() async throws {
            var iterator = PCSCReaders.readerList().makeAsyncIterator()
            let first = try await iterator.next()
            #expect(first == PCSCTestReaders.all)
        }
    }
}
