import NDEF
import NFCSession

/// How ndeftool writes a tag's UID.
///
/// In JSON, every command gives the UID in one form: upper-case hex without separators,
/// `"04A1B2C3D4E5F6"`, the form `sim:...?uid=` and `{uid}` in batch templates take, easy to
/// compare and to use as a file name. Text for people separates the bytes with colons
/// (`04:A1:B2:C3:D4:E5:F6`, ``NFCSession/NFCTargetInfo/uidDescription``).
enum UIDText {
    /// `04A1B2C3D4E5F6`.
    static func json(_ uid: [UInt8]) -> String {
        NDEFHex.encode(uid, uppercase: true, separator: "")
    }
}

extension NFCTargetInfo {
    /// The UID as JSON gives it: upper-case hex without separators (``UIDText``).
    var uidJSON: String { UIDText.json(uid) }
}
