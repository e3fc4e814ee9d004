import TagMemory

/// The UID and NFC counter mirror of an NTAG213/215/216 as `info` reports it (datasheet 8.7):
/// the configuration in CFG0 (MIRROR_CONF, MIRROR_BYTE, MIRROR_PAGE) and CFG1 (NFC_CNT_EN,
/// NFC_CNT_PWD_PROT), and the text a reader sees at the mirror now, taken from the READ answers
/// `info` got.
///
/// JSON: `{"kind": "off" | "uid" | "counter" | "uidAndCounter", "page": 9, "byte": 1,
/// "applied": true, "shown": "04517CA24B3580x000003", "counterEnabled": true,
/// "counterPasswordProtected": false}`.
struct MirrorFacts: Encodable, Sendable {
    var kind: String
    var page: Int?
    var byte: Int?
    /// Whether the chip applies the mirror now (on, placed inside user memory, the counter
    /// enabled and not hidden for a counter-only mirror).
    var applied: Bool
    /// What a reader sees where the mirror is; nil when it is not applied.
    var shown: String?
    var counterEnabled: Bool
    var counterPasswordProtected: Bool
    /// Why a mirror that is on shows nothing, or shows the UID alone.
    var note: String?

    /// The facts of `memory` (as READ answered it), for a chip with the mirror whose
    /// configuration pages were read; nil otherwise.
    init?(memory: Type2Memory, authenticated: Bool) {
        guard let chip = memory.chip, chip.features.contains(.asciiMirror),
            let configuration = memory.configuration, let mirror = configuration.mirror
        else { return nil }
        counterEnabled = configuration.isNFCCounterEnabled
        counterPasswordProtected = configuration.isNFCCounterPasswordProtected
        guard let kind = MirrorJSON.kind(mirror.mode) else {
            self.kind = "off"
            applied = false
            return
        }
        self.kind = kind
        page = mirror.page
        byte = mirror.byte
        let range = configuration.mirroredBytes(authenticated: authenticated)
        applied = range != nil
        if let range, range.upperBound <= memory.bytes.count {
            shown = String(decoding: memory.bytes[range], as: UTF8.self)
        }
        let fullEnd = mirror.page * Type2Page.size + mirror.byte + mirror.mode.textLength
        if mirror.page < chip.userPages.lowerBound || fullEnd > chip.userBytes.upperBound {
            note = "not applied: it does not lie inside user memory (pages \(chip.userPages))"
        } else if mirror.mode.includesCounter && !counterEnabled {
            note = "the counter is off (NFC_CNT_EN 0)" + (mirror.mode == .nfcCounter ? ": nothing is shown" : "")
        } else if mirror.mode.includesCounter && counterPasswordProtected && !authenticated {
            note = "the counter shows only after PWD_AUTH (NFC_CNT_PWD_PROT)"
        }
    }

    /// `mirror: UID and NFC counter at page 9 byte 1: a reader sees 04517CA24B3580x000003`.
    var line: String {
        guard let page, let byte else { return "mirror: off" }
        let name =
            switch kind {
            case "uid": "UID"
            case "counter": "NFC counter"
            default: "UID and NFC counter"
            }
        var line = "mirror: \(name) at page \(page) byte \(byte)"
        if let shown { line += ": a reader sees \(shown)" }
        if let note { line += " (\(note))" }
        return line
    }
}
