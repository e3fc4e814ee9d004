import NFCSession
import TagMemory

extension NFCMiFareTag {
    /// The NDEF status to report after a write, erase or format: the one the operation left
    /// (no command), or a fresh read when it left none.
    func statusAfterChange() async throws(NFCReaderError) -> NDEFTagStatus {
        if let status = lastWrittenStatus { return status }
        return try await ndefStatus()
    }
}
