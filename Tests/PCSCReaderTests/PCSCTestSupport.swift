import NFCSession
import Testing

/// The reader error `body` throws, or nil when it throws nothing (or something else).
func readerError(_ body: () throws -> Void) -> NFCReaderError? {
    do {
        try body()
        return nil
    } catch let error as NFCReaderError {
        return error
    } catch {
        return nil
    }
}

/// The reader error an async `body` throws, or nil.
func asyncReaderError(_ body: () async throws -> Void) async -> NFCReaderError? {
    do {
        try await body()
        return nil
    } catch let error as NFCReaderError {
        return error
    } catch {
        return nil
    }
}
