extension Type2Memory {
    /// The memory after one WRITE (A2h) of `data` to `page`, as the chip executes it: a pure
    /// model of the tag for dry runs, tests and simulated tags.
    ///
    /// Rules (NTAG213/215/216 datasheet 8.5 and 10.4, MF0ICU1 8.5, MF0ULX1 8.5, MF0ICU2 7.5;
    /// T2T 1.1, 2.1 and 5.2):
    /// - Pages 0 and 1 (UID) are write-protected at the factory: refused.
    /// - Page 2: bytes 0-1 (BCC1, internal) are not changed by WRITE; bytes 2-3 are OR-ed
    ///   into the static lock bytes, except for lock bits a block-lock bit froze.
    /// - Page 3 (CC) is one-time programmable: the data is OR-ed in; refused when the L-CC
    ///   lock bit is set.
    /// - The chip's dynamic lock bytes are OR-ed in, except for frozen bits; the other bytes of
    ///   that page are not lock bits and are not changed. For a chip not in the catalogue, the
    ///   lock bytes of the Lock Control TLV (``genericDynamicLock``) are OR-ed likewise.
    /// - Any other page locked by static or dynamic lock bits, or CFG0/CFG1 with CFGLCK set
    ///   (``isPageLocked(_:)``), is refused.
    /// - A page at or after ``firstWriteProtectedPage`` is refused unless `authenticated`.
    /// - PWD and PACK are stored as written. A real chip reads them back as 00h; keeping the
    ///   value lets a test or a simulated tag check what was written (a simulated READ must
    ///   answer zeros for them).
    ///
    /// The result is parsed again with the same chip and default decoding options. Lock bits
    /// take effect at once (the datasheets of older chips make them effective at the next
    /// REQA/WUPA; a plan must not rely on writing a page after locking it).
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` when `data` is not 4 bytes or the page
    ///   does not exist (a tag answers NAK 0h); ``TagMemoryError/Code/truncatedImage`` when the
    ///   image does not hold the page; ``TagMemoryError/Code/notWritable`` for a refused write
    ///   (the tag answers NAK), the reason saying why.
    public func applyingWrite(page: Int, data: [UInt8], authenticated: Bool = false) throws(TagMemoryError)
        -> Type2Memory
    {
        var new = bytes
        try write(page: page, data: data, authenticated: authenticated, into: &new)
        return Type2Memory(bytes: new, chip: chip)
    }

    /// Checks a WRITE of `data` to `page` against this memory's rules and puts the bytes the
    /// page then holds into `image` (this memory's bytes, or those bytes with writes to pages
    /// that leave the rules as they are, see ``writeLeavesRulesUnchanged(page:)``).
    private func write(
        page: Int, data: [UInt8], authenticated: Bool, into image: inout [UInt8]
    ) throws(TagMemoryError) {
        image.replaceSubrange(
            Type2Page.bytes(of: page), with: try pageAfterWrite(page: page, data: data, authenticated: authenticated))
    }

    /// The 4 bytes `page` holds after a WRITE of `data`, checked and programmed by the rules of
    /// ``applyingWrite(page:data:authenticated:)``, without parsing the result: for a caller that
    /// keeps the image itself, such as a simulated tag.
    ///
    /// When ``writeLeavesRulesUnchanged(page:)`` is true for every page written since this
    /// memory was parsed, its rules are still those of the written image, so it can check the
    /// next write as well; after any other write, parse the image again.
    ///
    /// - Throws: as ``applyingWrite(page:data:authenticated:)``.
    public func pageAfterWrite(page: Int, data: [UInt8], authenticated: Bool = false) throws(TagMemoryError)
        -> [UInt8]
    {
        guard data.count == Type2Page.size else {
            throw TagMemoryError(.invalidArgument, "a WRITE carries 4 bytes, not \(data.count)")
        }
        let pageCount = chip?.pageCount ?? bytes.count / Type2Page.size
        guard page >= 0, page < pageCount else {
            throw TagMemoryError(.invalidArgument, "page \(page) does not exist (\(pageCount) pages)")
        }
        let range = Type2Page.bytes(of: page)
        guard range.upperBound <= bytes.count else {
            throw TagMemoryError(.truncatedImage, at: bytes.count, "the image does not hold page \(page)")
        }
        if let start = firstWriteProtectedPage, page >= start, !authenticated {
            throw TagMemoryError(
                .notWritable, at: range.lowerBound,
                "page \(page) is password-protected (AUTH0 \(start)): authenticate first")
        }
        return try programmed(page: page, data: data)
    }

    /// Whether a write to `page` leaves every rule of ``applyingWrite(page:data:authenticated:)``
    /// as it was, so that writes to such pages can be applied to the bytes before the image is
    /// parsed again: a user memory page of a known chip (neither lock bytes, CC, configuration,
    /// nor 3DES pages), whose content no rule reads. Always false without a chip, whose lock
    /// bytes a Lock Control TLV in the data area locates.
    public func writeLeavesRulesUnchanged(page: Int) -> Bool {
        guard let chip, chip.userPages.contains(page), page != chip.dynamicLock?.page else { return false }
        if let pages = chip.configurationPages, pages.pages.contains(page) { return false }
        if let pages = chip.tripleDESPages,
            [pages.counter, pages.auth0, pages.auth1].contains(page) || pages.key.contains(page)
        {
            return false
        }
        return true
    }

    /// The memory after the steps of `plan`, in order; see ``applyingWrite(page:data:authenticated:)``.
    ///
    /// - Parameters:
    ///   - plan: the steps to apply.
    ///   - authenticated: whether the session authenticated before the first step; nil: as the
    ///     plan says (``TagWritePlan/requiresAuthentication``).
    /// - Throws: the error of the first refused step (the steps before it are lost with the
    ///   copy: apply steps one by one to see the state at a failure), and
    ///   ``TagMemoryError/Code/invalidArgument`` for a step that names a Type 4 file.
    ///
    /// The result is the same as applying the steps one by one with
    /// ``applyingWrite(page:data:authenticated:)``; the image is parsed again only after a step
    /// that may change the write rules (lock, CC or configuration pages) and at the end.
    public func applying(_ plan: TagWritePlan, authenticated: Bool? = nil) throws(TagMemoryError) -> Type2Memory {
        var memory = self
        var image = bytes
        var isParsed = true
        for (index, step) in plan.steps.enumerated() {
            guard step.file == nil else {
                throw TagMemoryError(.invalidArgument, "step \(index) names a file: it is not a Type 2 page write")
            }
            let isAuthenticated = authenticated ?? plan.requiresAuthentication
            if memory.writeLeavesRulesUnchanged(page: step.address) {
                try memory.write(page: step.address, data: step.data, authenticated: isAuthenticated, into: &image)
                isParsed = false
            } else {
                if !isParsed { memory = Type2Memory(bytes: image, chip: chip) }
                memory = try memory.applyingWrite(page: step.address, data: step.data, authenticated: isAuthenticated)
                image = memory.bytes
                isParsed = true
            }
        }
        return isParsed ? memory : Type2Memory(bytes: image, chip: chip)
    }

    /// The 4 bytes `page` holds after a WRITE of `data`, or the reason the chip refuses it.
    private func programmed(page: Int, data: [UInt8]) throws(TagMemoryError) -> [UInt8] {
        let range = Type2Page.bytes(of: page)
        let current = Array(bytes[range])
        switch page {
        case 0, 1:
            throw TagMemoryError(
                .notWritable, at: range.lowerBound, "page \(page) holds the UID, locked at the factory")
        case 2:
            let lock = (staticLock ?? Type2StaticLock(lock0: 0, lock1: 0)).programmed(lock0: data[2], lock1: data[3])
            return [current[0], current[1], lock.lock0, lock.lock1]
        case 3:
            if staticLock?.isPageLocked(3) == true {
                throw TagMemoryError(.notWritable, at: range.lowerBound, "the CC page is locked (L-CC)")
            }
            return zip(current, data).map { $0 | $1 }
        default:
            break
        }
        if let layout = chip?.dynamicLock, layout.page == page {
            var result = current
            let lockBytes = layout.programmed(lockBytes: current, data: data)
            for index in lockBytes.indices where result.indices.contains(index) { result[index] = lockBytes[index] }
            return result
        }
        if isPageLocked(page) {
            throw TagMemoryError(.notWritable, at: range.lowerBound, "page \(page) is locked")
        }
        var result = data
        if let generic = genericDynamicLock {
            for (offset, address) in range.enumerated() where generic.lockBytes.contains(address) {
                result[offset] = current[offset] | data[offset]
            }
        }
        return result
    }
}
