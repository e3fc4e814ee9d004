import NFCSession
import TagMemory

extension NFCTargetInfo {
    /// The UID as JSON gives it: upper-case hex without separators (``TagMemory/UIDText``).
    var uidJSON: String { UIDText.json(uid) }
}
