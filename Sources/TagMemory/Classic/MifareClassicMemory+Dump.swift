import NDEF

extension MifareClassicMemory {
    /// Parses the memory image of a dump (a libnfc `.mfd` file, a Flipper or proxmark3 dump).
    ///
    /// The card type comes from the image size (``MifareClassicType/init(imageSize:)``); the
    /// dump's layout is not checked, so a Type 2 image simply finds no MAD.
    public init(
        dump: TagDump,
        crcPolicy: MifareApplicationDirectory.CRCPolicy = .strict,
        options: NDEFDecodingOptions = NDEFDecodingOptions()
    ) {
        self.init(bytes: dump.memory, crcPolicy: crcPolicy, options: options)
    }
}
