/// Reads and writes raw memory images (``TagDumpFormat/raw``): libnfc `.mfd` files.
enum RawDump {
    /// Reads an image; `layout` overrides the guess from the content.
    static func decode(_ bytes: [UInt8], layout: TagDump.Layout?) throws(TagMemoryError) -> TagDump {
        try checkImage(bytes, layout: layout ?? .type2, base: 0)
        let layout = layout ?? TagDump.Layout.guess(for: bytes)
        return TagDump(layout: layout, memory: bytes)
    }

    /// The memory image, unchanged.
    static func encode(_ dump: TagDump) throws(TagMemoryError) -> [UInt8] {
        try checkMemory(of: dump)
        return dump.memory
    }

    /// Refuses an empty image, one larger than ``TagDump/maximumMemorySize`` and one that ends
    /// inside a page or block; `base` is where the image starts in the file, for offsets.
    static func checkImage(_ image: [UInt8], layout: TagDump.Layout, base: Int) throws(TagMemoryError) {
        guard !image.isEmpty else {
            throw TagMemoryError(.malformedDump, at: base, "the memory image is empty")
        }
        guard image.count <= TagDump.maximumMemorySize else {
            throw TagMemoryError(
                .malformedDump, at: base + TagDump.maximumMemorySize,
                "the memory image has \(image.count) bytes, more than the \(TagDump.maximumMemorySize) of any "
                    + "supported tag")
        }
        let unit = layout.unitSize
        let partial = image.count % unit
        guard partial == 0 else {
            let start = base + image.count - partial
            let what = layout == .type2 ? "page" : "block"
            throw TagMemoryError(
                .malformedDump, at: start,
                "the memory image has \(image.count) bytes, not a whole number of \(unit)-byte \(what)s: "
                    + "the last \(what), at byte \(start), has only \(partial)")
        }
    }

    /// Checks a dump about to be written: its memory must be a valid image for its layout.
    static func checkMemory(of dump: TagDump) throws(TagMemoryError) {
        do {
            try checkImage(dump.memory, layout: dump.layout, base: 0)
        } catch {
            throw TagMemoryError(.invalidArgument, at: error.offset, error.reason)
        }
    }
}
