import NFCSession
import PCSCReader
import Testing

/// Reader discovery against the test run's pcscd and its four vpcd readers.
@Suite("Reader discovery through the real pcscd", .enabled(if: PCSCTestReaders.isAvailable, PCSCTestReaders.skipNote))
struct PCSCDiscoveryTests {
    @Test("discover(timeout:) returns pcscd's readers at once when they are there")
    func discoverFindsTheReaders() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let names = try await PCSCReaders.discover(timeout: .seconds(60))
        #expect(names == PCSCTestReaders.all)
        // Well before the timeout (the machine may be busy: only waiting it out would fail this).
        #expect(clock.now - start < .seconds(50), "discovery waited although the readers were there")
    }

    @Test("readerList() starts with the whole list of readers")
    func liveListStartsWithTheReaders() async throws {
        var iterator = PCSCReaders.readerList().makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first == PCSCTestReaders.all)
    }
}
