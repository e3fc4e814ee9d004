import NFCSession
import SimulatedReader
import Testing

/// Expects `text` to be refused as a `sim:` URL with invalidParameter and a reason naming `part`.
func expectRefused(_ text: String, naming part: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let url = try SimulatedReaderURL(parsing: text)
        Issue.record("\(text) parsed as \(url)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == .invalidParameter, sourceLocation: sourceLocation)
        #expect(error.reason.contains(part), "\(error.reason)", sourceLocation: sourceLocation)
    }
}
