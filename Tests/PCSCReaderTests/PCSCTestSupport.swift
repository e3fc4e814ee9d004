import NFCSession
import Testing

/// Bytes from hex text written in tests (spaces allowed). A typo in a test literal traps the
/// test, not the library.
func hex(_ text: String) -> [UInt8] {
    let digits = text.filter { !$0.isWhitespace }
    precondition(digits.count.isMultiple(of: 2), "odd hex literal in test: \(text)")
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        guard let byte = UInt8(digits[index..<next], radix: 16) else { preconditionFailure("bad hex: \(text)") }
        bytes.append(byte)
        index = next
    }
    return bytes
}

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
