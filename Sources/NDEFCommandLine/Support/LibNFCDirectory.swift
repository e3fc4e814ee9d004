import LibNFCReader
import NFCSession

/// How commands ask libnfc for its devices. ``system`` asks libnfc (`nfc_list_devices`); tests
/// running commands in process supply their own answer, so that the test process makes no libnfc
/// call (libnfc's scan touches USB, and its start-up changes the process environment).
struct LibNFCDirectory: Sendable {
    /// The connection strings of the devices libnfc knows, in its order.
    var connstrings: @Sendable () async throws(NFCReaderError) -> [String]

    /// libnfc itself.
    static let system = LibNFCDirectory(connstrings: { () throws(NFCReaderError) in
        try await LibNFCDevices.connstrings()
    })

    /// No device configured or found.
    static let none = LibNFCDirectory(connstrings: { () throws(NFCReaderError) in [] })
}
