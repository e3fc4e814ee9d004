import NDEF

/// Bytes as upper-case hex pairs separated by spaces, for error reasons and events.
func hexText(_ bytes: some Sequence<UInt8>) -> String {
    NDEFHex.encode(bytes, uppercase: true, separator: " ")
}
