import NDEF
import NFCSession
import TagMemory

/// Writes with the UID and NFC counter mirror of NTAG213/215/216 (datasheet 8.7), which `write`
/// asks for with `{uid-mirror}` and `{counter-mirror}` placeholders; without one, the tag's own
/// ``NFCSession/NFCNDEFTag/writeNDEF(_:)``.
extension NFCNDEFTag {
    /// Writes `message`, setting up `mirror` on a Type 2 tag (``NFCSession/NFCMiFareTag/writeNDEF(_:mirror:)``);
    /// `resume` completes an interrupted write.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/unsupportedFeature`` before any command when
    ///   a mirror is asked of a tag that has none.
    func writeNDEF(_ message: NFCNDEFMessage, mirror: Type2MirrorRequest?, resume: Bool) async throws(NFCReaderError) {
        if let mirror {
            let type2 = try mirroring()
            if resume {
                try await type2.resumeWrite(message, mirror: mirror)
            } else {
                try await type2.writeNDEF(message, mirror: mirror)
            }
        } else if resume {
            try await resumeWrite(message)
        } else {
            try await writeNDEF(message)
        }
    }

    /// The writes ``writeNDEF(_:mirror:resume:)`` would send, without writing.
    func plannedWrite(of message: NFCNDEFMessage, mirror: Type2MirrorRequest?) async throws(NFCReaderError)
        -> TagWritePlan
    {
        guard let mirror else { return try await plannedWrite(of: message) }
        return try await mirroring().plannedWrite(of: message, mirror: mirror)
    }

    /// The mirror the last write set up; nil on a tag without one.
    var lastWrittenMirror: Type2Configuration.Mirror? {
        get async { await (self as? NFCMiFareTag)?.lastWrittenMirror }
    }

    /// This tag as one that has the mirror.
    private func mirroring() throws(NFCReaderError) -> NFCMiFareTag {
        guard let type2 = self as? NFCMiFareTag else {
            throw NFCReaderError(
                .unsupportedFeature, "\(chipName ?? "this tag") has no UID or NFC counter mirror (NTAG213/215/216 have)"
            )
        }
        try type2.checkMirrorSupport()
        return type2
    }
}
