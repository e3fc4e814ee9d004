import TagSimulator

/// The card's side of the ISO/IEC 14443-4 block protocol for the selected Type 4 tag, for
/// hosts that send raw blocks through a reader's pass-through (PN532 InCommunicateThru with
/// the PN532's automatic RATS off, as nfcpy does): RATS, I-blocks carrying APDUs with chaining
/// both ways, R-blocks and S(DESELECT). The APDUs go to the tag through
/// ``TagSimulator/SimulatedField/transceiveAPDU(_:)``; frames here carry no CRC (the reader
/// adds and checks it).
///
/// Block numbering follows the PICC rules of ISO/IEC 14443-4 7.5.4.2: the block number starts
/// at 1 after RATS; an I-block received toggles it; an R(ACK) or R(NAK) carrying the current
/// block number brings the last block again; an R(NAK) carrying the other number is answered
/// with R(ACK); an R(ACK) carrying the other number continues a chained response. The card
/// sends frames of at most FSD bytes (from the RATS parameter, 5.1; 256 before any RATS).
/// CID is echoed when the reader sends one; NAD is accepted and not echoed (simplification).
struct ISODEPBlockLink: Sendable {
    /// What a block brought back.
    enum Reply: Sendable, Hashable {
        case block([UInt8])
        /// No answer (not a block this card takes, or nothing selected).
        case silent
        /// The tags left the field during the APDU.
        case tagLeft
    }

    /// The card's current block number (0 or 1).
    private var blockNumber: UInt8 = 1
    /// The largest frame the reader takes, CRC included (FSD).
    private var frameSizeLimit = 256
    /// The last block sent, for a retransmission.
    private var lastBlock: [UInt8]?
    /// The command APDU received so far in a chain.
    private var chainedCommand: [UInt8] = []
    /// The rest of a chained response.
    private var pendingResponse: [UInt8] = []

    /// FSD for each FSDI (ISO/IEC 14443-4 5.1, table 1); FSDI above 8 means 256.
    static let frameSizes = [16, 24, 32, 40, 48, 64, 96, 128, 256]

    /// Answers one frame (without CRC) from the reader.
    mutating func receive(_ frame: [UInt8], _ field: inout SimulatedField) -> Reply {
        guard let pcb = frame.first, let ats = field.selectedTag?.ats else { return .silent }
        if pcb == 0xE0 {
            guard frame.count == 2 else { return .silent }
            let fsdi = Int(frame[1] >> 4)
            self = ISODEPBlockLink()
            frameSizeLimit = Self.frameSizes[min(fsdi, Self.frameSizes.count - 1)]
            return .block(ats)
        }
        let hasCID = pcb & 0x08 != 0
        let header = hasCID ? [pcb, frame.count > 1 ? frame[1] : 0] : [pcb]
        guard frame.count >= header.count else { return .silent }
        let cid = hasCID ? Array(frame[1...1]) : []
        switch pcb & 0xE2 {
        case 0x02:
            let information = Array(frame.dropFirst(header.count + (pcb & 0x04 != 0 ? 1 : 0)))
            return iBlock(chaining: pcb & 0x10 != 0, information, cid: cid, &field)
        case 0xA2:
            return rBlock(nak: pcb & 0x10 != 0, number: pcb & 0x01, cid: cid)
        case 0xC2 where pcb & 0x30 == 0x00:
            // S(DESELECT): the card answers it and halts.
            field.haltSelected()
            self = ISODEPBlockLink()
            return .block([pcb] + cid)
        default:
            return .silent
        }
    }

    private mutating func iBlock(
        chaining: Bool, _ information: [UInt8], cid: [UInt8], _ field: inout SimulatedField
    ) -> Reply {
        blockNumber ^= 1
        pendingResponse = []
        chainedCommand += information
        if chaining { return remember([0xA2 | blockNumber | (cid.isEmpty ? 0 : 0x08)] + cid) }
        let apdu = chainedCommand
        chainedCommand = []
        switch ContactlessReaderEmulator.exchangeAPDU(apdu, &field) {
        case .tagLeft: return .tagLeft
        case .silent: return .silent
        case .answer(let response):
            pendingResponse = response
            return nextResponseBlock(cid: cid)
        }
    }

    private mutating func rBlock(nak: Bool, number: UInt8, cid: [UInt8]) -> Reply {
        if number == blockNumber {
            return lastBlock.map(Reply.block) ?? .silent
        }
        if nak { return .block([0xA2 | blockNumber | (cid.isEmpty ? 0 : 0x08)] + cid) }
        guard !pendingResponse.isEmpty else { return .silent }
        blockNumber ^= 1
        return nextResponseBlock(cid: cid)
    }

    /// The next I-block of the response, chained when the rest does not fit in FSD.
    private mutating func nextResponseBlock(cid: [UInt8]) -> Reply {
        let room = max(1, frameSizeLimit - 3 - cid.count)
        let part = Array(pendingResponse.prefix(room))
        pendingResponse.removeFirst(part.count)
        let more: UInt8 = pendingResponse.isEmpty ? 0x00 : 0x10
        let pcb: UInt8 = 0x02 | more | blockNumber | (cid.isEmpty ? 0 : 0x08)
        return remember([pcb] + cid + part)
    }

    private mutating func remember(_ block: [UInt8]) -> Reply {
        lastBlock = block
        return .block(block)
    }
}
