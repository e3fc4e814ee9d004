import NFCWireFormat
import TagMemory

/// Authentication, READ, WRITE and the value operations of a simulated MIFARE Classic card,
/// with the access conditions of NXP MF1S50yyX section 8.7.
extension SimulatedClassicTag {
    /// What the authenticated key may do in the sector holding a block, once the checks every
    /// access makes have passed.
    struct BlockAccess {
        /// The sector.
        var sector: MifareClassicSector
        /// The key authenticated.
        var key: MifareClassicKeys
        /// The sector's access bits, consistent.
        var accessBits: MifareClassicAccessBits
        /// What the access bits allow on the trailer.
        var trailer: MifareClassicTrailerAccess
    }

    /// The checks before any READ, WRITE or value operation on `block`: the block exists, its
    /// sector is the one authenticated, the access bits are consistent (8.7.1), and the key is
    /// not a key B the trailer lets be read (Tables 7 and 8, note [1]). Nil when one fails.
    func access(toBlock block: Int) -> BlockAccess? {
        guard let authentication, let sector = MifareClassicSector.containing(block: block),
            block < type.blockCount, sector.number == authentication.sector
        else { return nil }
        let trailer = trailer(of: sector)
        guard trailer.count == 16 else { return nil }
        let bits = MifareClassicAccessBits(byte6: trailer[6], byte7: trailer[7], byte8: trailer[8])
        guard let trailerAccess = bits.trailerAccess else { return nil }
        if authentication.usedKeyB && trailerAccess.isKeyBReadable { return nil }
        return BlockAccess(
            sector: sector, key: authentication.usedKeyB ? .keyB : .keyA, accessBits: bits, trailer: trailerAccess)
    }

    /// What the key may do on data block `block` of `access`'s sector.
    func dataPermissions(_ access: BlockAccess, block: Int) -> MifareClassicDataBlockAccess? {
        access.sector.accessGroup(ofBlock: block).flatMap { access.accessBits.dataBlockAccess(group: $0) }
    }

    /// AUTH_A or AUTH_B: `frame` is opcode, block, key (6 bytes), the UID's last four bytes.
    mutating func authenticate(_ frame: [UInt8], keyB: Bool) -> SimulatedType2Response {
        guard frame.count == MifareClassicCommand.authenticationFrameLength, Int(frame[1]) < type.blockCount,
            let sector = MifareClassicSector.containing(block: Int(frame[1]))
        else { return Self.refused }
        authentication = nil
        transferBuffer = nil
        let trailer = trailer(of: sector)
        let key = keyB ? trailer.suffix(6) : trailer.prefix(6)
        guard Array(frame[2..<8]) == Array(key), Array(frame[8..<12]) == Array(uid.suffix(4)) else {
            return .silent
        }
        authentication = Authentication(sector: sector.number, usedKeyB: keyB)
        return .ack
    }

    /// READ: a data block where the key may read it; a trailer with key A as zeros and the
    /// access bits, GPB and key B where the key may read them (zeros otherwise).
    mutating func read(_ frame: [UInt8]) -> SimulatedType2Response {
        guard frame.count == 2, let access = access(toBlock: Int(frame[1])),
            let stored = block(Int(frame[1]))
        else { return Self.refused }
        let block = Int(frame[1])
        if access.sector.isTrailer(block) {
            let bits = access.trailer.accessBitsRead.isSuperset(of: access.key) ? Array(stored[6..<10]) : [0, 0, 0, 0]
            let keyB = access.trailer.keyBRead.isSuperset(of: access.key) ? Array(stored[10..<16]) : [0, 0, 0, 0, 0, 0]
            return .data([0, 0, 0, 0, 0, 0] + bits + keyB)
        }
        guard let permissions = dataPermissions(access, block: block), permissions.read.isSuperset(of: access.key)
        else { return Self.refused }
        return .data(stored)
    }

    /// WRITE: `frame` is A0h, block, 16 bytes. Block 0 is write-protected (8.6.1). A data
    /// block is written where the key may write it; a trailer part by part (key A, access bits
    /// with the GPB, key B), each where the key may write it.
    mutating func write(_ frame: [UInt8]) -> SimulatedType2Response {
        guard let written = permittedWrite(frame) else { return Self.refused }
        store(written.content, inBlock: written.block)
        return .ack
    }

    /// The block `frame` (a WRITE) would change and its content afterwards, when the card
    /// would carry it out now; nil when it would refuse it.
    func permittedWrite(_ frame: [UInt8]) -> (block: Int, content: [UInt8])? {
        guard frame.count == MifareClassicCommand.writeFrameLength, frame[1] != 0,
            let access = access(toBlock: Int(frame[1])), let stored = block(Int(frame[1]))
        else { return nil }
        let block = Int(frame[1])
        let new = Array(frame[2..<18])
        guard access.sector.isTrailer(block) else {
            guard let permissions = dataPermissions(access, block: block), permissions.write.isSuperset(of: access.key)
            else { return nil }
            return (block, new)
        }
        var content = stored
        var changed = false
        let parts: [(MifareClassicKeys, Range<Int>)] = [
            (access.trailer.keyAWrite, 0..<6), (access.trailer.accessBitsWrite, 6..<10),
            (access.trailer.keyBWrite, 10..<16),
        ]
        for (keys, range) in parts where keys.isSuperset(of: access.key) {
            content.replaceSubrange(range, with: new[range])
            changed = true
        }
        return changed ? (block, content) : nil
    }

    /// Puts `content` (16 bytes) into `block` as it is.
    mutating func store(_ content: [UInt8], inBlock block: Int) {
        guard content.count == 16, block >= 0, block < type.blockCount else { return }
        let start = block * MifareClassicSector.blockSize
        bytes.replaceSubrange(start..<(start + 16), with: content)
    }

    /// INCREMENT, DECREMENT or RESTORE: the value of a value block (8.6.2.1), changed by the
    /// operand (least significant byte first), into the transfer buffer.
    mutating func loadTransferBuffer(_ kind: SimulatedClassicCommand, _ frame: [UInt8]) -> SimulatedType2Response {
        guard frame.count == MifareClassicCommand.valueFrameLength, let access = access(toBlock: Int(frame[1])),
            !access.sector.isTrailer(Int(frame[1])), let permissions = dataPermissions(access, block: Int(frame[1])),
            let stored = block(Int(frame[1])), let value = Self.value(ofValueBlock: stored)
        else { return Self.refused }
        let allowed = kind == .increment ? permissions.increment : permissions.decrementTransferRestore
        guard allowed.isSuperset(of: access.key) else { return Self.refused }
        let operand = Int32(
            bitPattern: UInt32(frame[2]) | UInt32(frame[3]) << 8 | UInt32(frame[4]) << 16 | UInt32(frame[5]) << 24)
        let result: Int32
        switch kind {
        case .increment: result = value.value &+ operand
        case .decrement: result = value.value &- operand
        default: result = value.value
        }
        transferBuffer = (result, value.address)
        return .ack
    }

    /// TRANSFER: the transfer buffer into a value block the key may decrement/transfer.
    mutating func transfer(_ frame: [UInt8]) -> SimulatedType2Response {
        guard let written = permittedTransfer(frame) else { return Self.refused }
        store(written.content, inBlock: written.block)
        transferBuffer = nil
        return .ack
    }

    /// The block a TRANSFER would change and its content afterwards, nil when it is refused.
    func permittedTransfer(_ frame: [UInt8]) -> (block: Int, content: [UInt8])? {
        guard frame.count == 2, let buffer = transferBuffer, let access = access(toBlock: Int(frame[1])),
            !access.sector.isTrailer(Int(frame[1])), Int(frame[1]) != 0,
            let permissions = dataPermissions(access, block: Int(frame[1])),
            permissions.decrementTransferRestore.isSuperset(of: access.key)
        else { return nil }
        return (Int(frame[1]), Self.valueBlock(buffer.value, address: buffer.address))
    }

    /// The value and address of a value block: value, its inverse, value again (4 bytes each,
    /// least significant first), then address, inverse, address, inverse (MF1S50yyX 8.6.2.1).
    /// Nil when the block is not in that format.
    static func value(ofValueBlock block: [UInt8]) -> (value: Int32, address: UInt8)? {
        guard block.count == 16 else { return nil }
        for index in 0..<4 {
            guard block[index] == block[8 + index], block[index] == ~block[4 + index] else { return nil }
        }
        guard block[12] == block[14], block[13] == block[15], block[12] == ~block[13] else { return nil }
        let raw = UInt32(block[0]) | UInt32(block[1]) << 8 | UInt32(block[2]) << 16 | UInt32(block[3]) << 24
        return (Int32(bitPattern: raw), block[12])
    }

    /// A value block holding `value` and `address`.
    static func valueBlock(_ value: Int32, address: UInt8) -> [UInt8] {
        let raw = UInt32(bitPattern: value)
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: raw >> ($0 * 8)) }
        return bytes + bytes.map { ~$0 } + bytes + [address, ~address, address, ~address]
    }

    /// The block `frame` would write now (a permitted WRITE or TRANSFER), for the fault
    /// options that act on writes; nil for any other frame.
    func writtenBlock(by frame: [UInt8]) -> Int? {
        guard state == .active else { return nil }
        switch SimulatedClassicCommand(frame: frame) {
        case .write: return permittedWrite(frame)?.block
        case .transfer: return permittedTransfer(frame)?.block
        default: return nil
        }
    }

    /// Receives `frame` and refuses it with NAK `code` without carrying it out (fault
    /// injection): the frame is counted and the card falls back as after any refusal.
    mutating func refuse(_ frame: [UInt8], nak code: UInt8) -> SimulatedType2Response {
        receive(frame)
        fallBack()
        return .nak(code & 0x0F)
    }

    /// Receives `frame` and acknowledges it without storing anything (fault injection).
    mutating func acknowledgeWithoutStoring(_ frame: [UInt8]) -> SimulatedType2Response {
        receive(frame)
        if SimulatedClassicCommand(frame: frame) == .transfer { transferBuffer = nil }
        return .ack
    }

    /// Carries out a WRITE cut while the EEPROM was being programmed: a data block keeps its
    /// old last eight bytes under the new first eight. A trailer is left as it was: a real
    /// card cut there may keep a half-programmed trailer, and no order of writes can avoid
    /// that window; ndeftool writes each trailer at most once per operation, and the
    /// simulator does not model a sector lost that way. Returns whether anything changed.
    @discardableResult
    mutating func tear(_ frame: [UInt8]) -> Bool {
        guard SimulatedClassicCommand(frame: frame) == .write, let written = permittedWrite(frame),
            !MifareClassicSector.isTrailer(block: written.block), let old = block(written.block)
        else { return false }
        receive(frame)
        store(Array(written.content.prefix(8)) + Array(old.suffix(8)), inBlock: written.block)
        return true
    }
}
