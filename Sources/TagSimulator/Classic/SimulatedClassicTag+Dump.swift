import TagMemory

/// A simulated MIFARE Classic card to and from a dump: the memory image with the keys in the
/// trailers, as libnfc's `nfc-mfclassic` writes a `.mfd` file (raw) or as hex text.
extension SimulatedClassicTag {
    /// The card a dump holds: the product from the image size (320 bytes Mini, 1024 1K,
    /// 2048 MIFARE Plus 2K, 4096 4K); the UID from the dump when it names one of 4 or 7 bytes
    /// that block 0 starts with, else from block 0 (4 bytes when byte 4 is their BCC, 7
    /// otherwise).
    ///
    /// - Throws: ``TagMemory/TagMemoryError/Code/malformedDump`` for a Type 2 dump or an image
    ///   of another size.
    public init(dump: TagDump) throws(TagMemoryError) {
        guard dump.layout == .mifareClassic else {
            throw TagMemoryError(.malformedDump, "the dump holds Type 2 pages, not MIFARE Classic blocks")
        }
        guard let type = MifareClassicType(imageSize: dump.memory.count) else {
            throw TagMemoryError(
                .malformedDump, at: dump.memory.count,
                "a MIFARE Classic image has 320, 1024, 2048 or 4096 bytes, not \(dump.memory.count)")
        }
        var uidLength: Int?
        if let uid = dump.uid, uid.count == 4 || uid.count == 7, dump.memory.starts(with: uid) {
            uidLength = uid.count
        }
        self.init(type: type, image: dump.memory, uidLength: uidLength)
    }

    /// The card as a dump: the whole image, keys included, with the UID, ATQA and SAK.
    public var dump: TagDump {
        TagDump(layout: .mifareClassic, memory: bytes, uid: uid, atqa: atqa, sak: sak, chipName: type.description)
    }
}
