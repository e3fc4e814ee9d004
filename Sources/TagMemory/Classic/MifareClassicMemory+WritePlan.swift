import NDEF

extension MifareClassicMemory {
    /// Plans writing `message` as the card's NDEF message (NXP AN1304, NDEF write procedure);
    /// a message without records leaves an empty NDEF TLV. See ``writePlan(messageBytes:)``.
    ///
    /// - Throws: ``TagMemoryError/Code/malformedMessage`` when the message cannot be encoded,
    ///   and the errors of ``writePlan(messageBytes:)``.
    public func writePlan(for message: NFCNDEFMessage) throws(TagMemoryError) -> TagWritePlan {
        try writePlan(messageBytes: TagWritePlan.messageBytes(of: message))
    }

    /// Plans writing an encoded NDEF message into the NDEF Message TLV of the NFC sectors.
    ///
    /// The TLV stays where it is (``ndefTLVAddress``); its T, L and message bytes run over the
    /// data blocks of the NFC sectors, skipping their trailers and the MAD2 sector 16 (AN1304).
    /// Every step is a 16-byte block WRITE (MF1S50yyX 9.4.2) with the block's other bytes kept;
    /// a block that already holds its content is left out. The order keeps a cut safe, as for
    /// Type 2 tags (T2T 1.1, 6.4.3, which AN1304 follows): first the block holding the first
    /// length byte with that byte 00h (the card reads as empty from then on), then the other
    /// blocks in address order with the message and the Terminator TLV, and last the length
    /// block with the final length, the one write that makes the new message visible. A change
    /// that touches one block only is that one WRITE. A WRITE is atomic only as far as the
    /// chip's EEPROM programming is: a cut inside the final length block's write can leave it
    /// undefined, which no order of writes avoids.
    ///
    /// Steps carry the block number in ``PlanStep/address`` and 16 bytes of data. Writing them
    /// takes an authentication of each sector with a key that may write its data blocks (the
    /// public NFC Forum key A under the access bits of AN1304).
    ///
    /// - Throws: ``TagMemoryError/Code/notFormatted`` when ``ndefStatus`` is not supported (no
    ///   MAD, no NFC sector, no NDEF Message TLV: format the card first);
    ///   ``TagMemoryError/Code/truncatedImage`` when the image does not hold the data area;
    ///   ``TagMemoryError/Code/insufficientCapacity`` when the message does not fit (the reason
    ///   names both sizes); ``TagMemoryError/Code/notWritable`` for a read-only card.
    public func writePlan(messageBytes message: [UInt8]) throws(TagMemoryError) -> TagWritePlan {
        let status = ndefStatus
        guard status.status != .notSupported, let typeAddress = ndefTLVAddress, let area = dataArea else {
            throw TagMemoryError(
                .notFormatted, at: MifareApplicationDirectory.generalPurposeByteAddress,
                "the card is not NDEF formatted: \(ndefStatusReason ?? "no NDEF Message TLV")")
        }
        guard bytes.count >= area.upperBound else {
            throw TagMemoryError(
                .truncatedImage, at: bytes.count,
                "the image ends at byte \(bytes.count), before the end of the data area (byte \(area.upperBound))")
        }
        let capacity = capacity(forTLVAt: typeAddress)
        let free = skippedBytes.freeRanges(in: typeAddress..<area.upperBound)
        guard message.count <= capacity,
            let layout = Type2MessageLayout(message: message, typeAddress: typeAddress, free: free)
        else {
            let total = message.count + TagTLV.headerSize(length: message.count)
            throw TagMemoryError(
                .insufficientCapacity, at: typeAddress,
                "the message needs \(message.count) bytes (\(total) with the NDEF TLV's T and L bytes) but the card "
                    + "holds at most \(capacity)")
        }
        guard status.status == .readWrite else {
            throw TagMemoryError(
                .notWritable, at: typeAddress, "the card is read-only: \(ndefStatusReason ?? "locked")")
        }
        return Self.steps(for: layout, over: bytes)
    }

    /// The block writes that put `layout` in place over `image`, in the cut-safe order.
    private static func steps(for layout: Type2MessageLayout, over image: [UInt8]) -> TagWritePlan {
        let size = MifareClassicSector.blockSize
        var working = image
        var steps: [PlanStep] = []
        func content(of block: Int, with changes: [Int: UInt8], in bytes: [UInt8]) -> [UInt8] {
            var data = Array(bytes[(block * size)..<(block * size + size)])
            for (address, value) in changes where address / size == block { data[address - block * size] = value }
            return data
        }
        func write(_ block: Int, _ data: [UInt8], _ reason: String) {
            guard Array(working[(block * size)..<(block * size + size)]) != data else { return }
            working.replaceSubrange((block * size)..<(block * size + size), with: data)
            steps.append(PlanStep(address: block, data: data, reason: reason))
        }
        let lengthBlock = layout.firstLengthAddress / size
        let blocks = layout.units(ofSize: size)
        let dataBlocks = blocks.filter { block in
            block != lengthBlock
                && content(of: block, with: layout.target, in: image) != content(of: block, with: [:], in: image)
        }
        let lengthChanges =
            content(of: lengthBlock, with: layout.target, in: image) != content(of: lengthBlock, with: [:], in: image)
        let isSingleWrite = dataBlocks.count + (lengthChanges ? 1 : 0) <= 1
        if !isSingleWrite, image[layout.firstLengthAddress] != 0 {
            var staged = layout.target
            staged[layout.firstLengthAddress] = 0
            write(
                lengthBlock, content(of: lengthBlock, with: staged, in: working),
                layout.valueAddresses.isEmpty
                    ? "NDEF TLV length 0 first: the card reads as empty from here on (AN1304)"
                    : "NDEF TLV length 0 first: until the length is written last, a cut leaves an empty message (AN1304)"
            )
        }
        for block in dataBlocks {
            let range = (block * size)..<(block * size + size)
            write(block, content(of: block, with: layout.target, in: working), layout.contents(ofBytes: range))
        }
        let count = layout.valueAddresses.count
        let reason =
            count == 0
            ? "NDEF TLV length 0: an empty message (AN1304)"
            : "NDEF TLV length \(count) last: the message becomes visible only once complete (AN1304)"
        let carried = layout.contents(ofBytes: (lengthBlock * size)..<(lengthBlock * size + size))
        write(
            lengthBlock, content(of: lengthBlock, with: layout.target, in: working),
            carried.isEmpty ? reason : "\(reason); \(carried)")
        return TagWritePlan(steps: steps)
    }
}
