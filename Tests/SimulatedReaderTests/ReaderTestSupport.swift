import NDEF
import TagMemory
import TagSimulator

/// Bytes from hex text written in tests. A typo in a test literal traps the test, not the library.
func hex(_ text: String) -> [UInt8] {
    do { return try NDEFHex.decode(text, allowSeparators: true) } catch { fatalError("bad hex literal in test: \(error)") }
}
