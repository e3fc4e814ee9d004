import NFCWireFormat
import TagMemory

/// A simulated MIFARE Classic card (Mini, 1K, 4K): a pure state machine that answers the
/// MIFARE Classic commands as readers pass them on (``NFCWireFormat/MifareClassicCommand``:
/// the PN532's InDataExchange, or PC/SC Part 3 storage-card APDUs translated by a reader).
///
/// Behaviour follows NXP MF1S50yyX (1K) and MF1S70yyX (4K): section 8.6 for the memory (block
/// 0 the manufacturer block, write-protected; a trailer closing each sector with key A, the
/// access bits, the general purpose byte and key B), 8.7 for the access conditions (Tables 7
/// and 8, through ``TagMemory/MifareClassicAccessBits``), section 9 for the commands.
///
/// - Authentication is per sector: AUTH_A or AUTH_B with the right key and the UID's last four
///   bytes opens the sector; a wrong key or UID is not answered and the card falls back to
///   IDLE (HALT if it was woken from HALT), as a failed Crypto-1 handshake leaves it.
/// - READ, WRITE and the value operations apply to the authenticated sector only, with the
///   rights the access bits give the key used; anything refused is NAK 4h and the card falls
///   back, unauthenticated. Key B of a sector whose trailer lets key B be read authenticates,
///   but every access afterwards is refused (note [1] of Tables 7 and 8); a sector whose
///   access bits are inconsistent refuses every access (8.7.1: "irreversibly blocked").
/// - Reading a trailer gives key A as zeros, the access bits and the GPB where the key may
///   read them, key B where it may (zeros otherwise). Writing a trailer stores each part the
///   key may write and keeps the others; a write no part of which may be written is refused.
///
/// Simplifications: Crypto-1, the nonces and parity of the real exchange stay inside the
/// reader, as they do behind a PN532 or a PC/SC reader; anticollision is ``select()``.
public struct SimulatedClassicTag: Sendable {
    /// The ISO/IEC 14443-3 state of the card.
    public typealias State = ISO14443State

    /// The sector a successful authentication opened, and with which key.
    public struct Authentication: Sendable, Hashable {
        /// The sector number.
        public var sector: Int
        /// Whether key B (AUTH_B) opened it; key A otherwise.
        public var usedKeyB: Bool

        /// The authentication of `sector` with key B when `usedKeyB`, key A otherwise.
        public init(sector: Int, usedKeyB: Bool) {
            self.sector = sector
            self.usedKeyB = usedKeyB
        }
    }

    /// The product simulated.
    public let type: MifareClassicType
    /// The UID: 4 bytes (NUID) or 7.
    public let uid: [UInt8]
    /// The memory from block 0, trailers with their keys as stored (READ hides them).
    public internal(set) var bytes: [UInt8]
    /// The ISO/IEC 14443-3 state.
    public internal(set) var state: State = .idle
    /// The authenticated sector, nil when none is.
    public internal(set) var authentication: Authentication?
    /// How many frames of each kind the card received, answered or not.
    public internal(set) var commandCounts: [SimulatedClassicCommand: Int] = [:]
    /// The transfer buffer of the value operations, nil until one fills it.
    var transferBuffer: (value: Int32, address: UInt8)?
    /// Whether the card was woken from HALT: after a refusal it falls back to HALT, not IDLE.
    var wasHalted = false
    /// Whether the card is a "Gen1a" magic clone: it acknowledges the 7-bit frame 40h and then
    /// 43h (``SimulatedField/receiveBackdoorFrame(_:bits:)``), after which its block 0 could be
    /// written without authentication. Genuine cards (false) answer neither. Only the answers
    /// are simulated: nothing here writes block 0.
    public var answersGen1aBackdoor = false

    /// Creates a card holding `image` (cut or padded with 00h to the product's size).
    ///
    /// - Parameters:
    ///   - type: the product.
    ///   - image: the memory from block 0 on, trailers with their keys.
    ///   - uidLength: 4 or 7; nil to read it from block 0: 4 when byte 4 is the BCC of bytes
    ///     0-3 (MF1S50yyX 8.6.1), 7 otherwise.
    public init(type: MifareClassicType, image: [UInt8], uidLength: Int? = nil) {
        let size = type.byteCount
        let fitted = Array(image.prefix(size)) + [UInt8](repeating: 0, count: max(0, size - image.count))
        let length = uidLength.map { $0 == 7 ? 7 : 4 } ?? (Self.hasBCC(fitted) ? 4 : 7)
        self.type = type
        self.bytes = fitted
        self.uid = Array(fitted.prefix(length))
    }

    /// Creates a card as it leaves the factory (``factoryImage(type:uid:)``).
    public init(type: MifareClassicType, uid: [UInt8] = SimulatedClassicTag.defaultUID) {
        let id = uid.count == 7 ? uid : Array((uid + [0, 0, 0, 0]).prefix(4))
        self.init(type: type, image: Self.factoryImage(type: type, uid: id), uidLength: id.count)
    }

    /// The UID of cards created without one.
    public static let defaultUID: [UInt8] = [0xC1, 0x7A, 0x55, 0x0E]

    /// A factory trailer: key A and key B FFFFFFFFFFFF, the transport access bits FF 07 80 and
    /// GPB 69h (MF1S50yyX 8.6.3, "transport configuration").
    public static let transportTrailer: [UInt8] =
        MifareClassicSectorTrailer.transportKey + MifareClassicAccessBits.transport.bytes + [0x69]
        + MifareClassicSectorTrailer.transportKey

    /// The memory of a card as shipped: block 0 (a 4-byte UID with its BCC, SAK, ATQA and
    /// manufacturer data; a 7-byte UID followed by manufacturer data, MF1S50yyX 8.6.1), data
    /// blocks of zeros, and every trailer in the transport configuration.
    public static func factoryImage(type: MifareClassicType, uid: [UInt8] = defaultUID) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: type.byteCount)
        let manufacturer: [UInt8] = [0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69]
        let head: [UInt8]
        if uid.count == 7 {
            head = uid + [sak(type: type)] + atqa(type: type, uidLength: 7) + manufacturer
        } else {
            let bcc = uid.prefix(4).reduce(0, ^)
            head = Array(uid.prefix(4)) + [bcc, sak(type: type)] + atqa(type: type, uidLength: 4) + manufacturer
        }
        bytes.replaceSubrange(0..<16, with: head.prefix(16))
        for sector in type.sectors {
            let start = sector.trailerBlock * MifareClassicSector.blockSize
            bytes.replaceSubrange(start..<(start + 16), with: transportTrailer)
        }
        return bytes
    }

    /// SAK / SEL_RES: 09h Mini, 08h 1K (and MIFARE Plus 2K at level 1), 18h 4K (NXP AN10833,
    /// "MIFARE type identification procedure", Table 6).
    public static func sak(type: MifareClassicType) -> UInt8 {
        switch type {
        case .mini: 0x09
        case .classic1K, .classic2K: 0x08
        case .classic4K: 0x18
        }
    }

    /// ATQA / SENS_RES as received (least significant byte first): 0004h for Mini, 1K and 2K
    /// with a 4-byte UID, 0044h with a 7-byte one; 0002h for 4K, 0042h with a 7-byte UID
    /// (AN10833 Table 6; MF1S50yyX 9.4, MF1S70yyX 9.4).
    public static func atqa(type: MifareClassicType, uidLength: Int) -> [UInt8] {
        let base: UInt8 = type == .classic4K ? 0x02 : 0x04
        return [uidLength == 7 ? base | 0x40 : base, 0x00]
    }

    /// SAK / SEL_RES of this card.
    public var sak: UInt8 { Self.sak(type: type) }
    /// ATQA / SENS_RES of this card.
    public var atqa: [UInt8] { Self.atqa(type: type, uidLength: uid.count) }

    /// Whether byte 4 of `image` is the BCC of bytes 0-3.
    static func hasBCC(_ image: [UInt8]) -> Bool {
        image.count >= 5 && image[4] == image[0] ^ image[1] ^ image[2] ^ image[3]
    }

    /// The memory, parsed (``TagMemory/MifareClassicMemory``).
    public var memory: MifareClassicMemory { MifareClassicMemory(bytes: bytes, type: type) }

    /// The 16 bytes of `block` as stored (keys included), or nil past the memory.
    public func block(_ block: Int) -> [UInt8]? {
        guard block >= 0, block < type.blockCount else { return nil }
        let start = block * MifareClassicSector.blockSize
        return Array(bytes[start..<(start + MifareClassicSector.blockSize)])
    }

    /// The trailer of `sector`, as stored.
    public func trailer(of sector: MifareClassicSector) -> [UInt8] {
        block(sector.trailerBlock) ?? []
    }

    /// REQA or WUPA, anticollision and SELECT in one step: the card becomes ACTIVE, no sector
    /// authenticated.
    public mutating func select() {
        wasHalted = wasHalted || state == .halt
        state = .active
        authentication = nil
        transferBuffer = nil
    }

    /// HLTA: the card halts and forgets its authentication.
    public mutating func halt() {
        state = .halt
        authentication = nil
        transferBuffer = nil
    }

    /// The field goes off: the card powers down to IDLE.
    public mutating func fieldOff() {
        state = .idle
        wasHalted = false
        authentication = nil
        transferBuffer = nil
    }

    /// An unexpected frame in READY or ACTIVE: back to IDLE, or HALT if woken from HALT.
    mutating func returnToWaitingState() {
        guard state == .active || state == .ready else { return }
        fallBack()
    }

    /// After a refusal or a failed authentication: back to IDLE, or HALT if woken from HALT,
    /// unauthenticated.
    mutating func fallBack() {
        state = wasHalted ? .halt : .idle
        authentication = nil
        transferBuffer = nil
    }

    /// How many frames of `command` the card received.
    public func count(of command: SimulatedClassicCommand) -> Int { commandCounts[command] ?? 0 }

    /// The total number of frames received.
    public var totalCommandCount: Int { commandCounts.values.reduce(0, +) }

    /// Forgets the command counts.
    public mutating func resetCommandCounts() {
        commandCounts = [:]
    }

    /// Answers one command frame (``NFCWireFormat/MifareClassicCommand``), as the card does in
    /// its current state. Only an ACTIVE card answers. A refusal is NAK 4h, a failed
    /// authentication no answer; after either the card falls back to its waiting state.
    public mutating func transceive(_ frame: [UInt8]) -> SimulatedType2Response {
        let kind = receive(frame)
        guard state == .active else { return .silent }
        let response = answer(kind, frame)
        switch response {
        case .nak: fallBack()
        case .silent where kind != .halt: fallBack()
        default: break
        }
        return response
    }

    /// Counts `frame` under its kind and returns the kind.
    @discardableResult
    mutating func receive(_ frame: [UInt8]) -> SimulatedClassicCommand {
        let kind = SimulatedClassicCommand(frame: frame)
        commandCounts[kind, default: 0] += 1
        return kind
    }

    private mutating func answer(_ kind: SimulatedClassicCommand, _ frame: [UInt8]) -> SimulatedType2Response {
        switch kind {
        case .authenticateA: authenticate(frame, keyB: false)
        case .authenticateB: authenticate(frame, keyB: true)
        case .read: read(frame)
        case .write: write(frame)
        case .increment, .decrement, .restore: loadTransferBuffer(kind, frame)
        case .transfer: transfer(frame)
        case .halt: haltCommand()
        case .unknown: Self.refused
        }
    }

    private mutating func haltCommand() -> SimulatedType2Response {
        halt()
        return .silent
    }

    /// NAK 4h: invalid operation (MF1S50yyX 9.3, Table 10).
    static let refused = SimulatedType2Response.nak(0x4)
}

/// The command kinds a simulated MIFARE Classic card tells apart, by their first byte
/// (``NFCWireFormat/MifareClassicCommand``).
public enum SimulatedClassicCommand: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// AUTH_A, 60h.
    case authenticateA = "AUTH_A"
    /// AUTH_B, 61h.
    case authenticateB = "AUTH_B"
    /// READ, 30h.
    case read = "READ"
    /// WRITE, A0h.
    case write = "WRITE"
    /// DECREMENT, C0h.
    case decrement = "DECREMENT"
    /// INCREMENT, C1h.
    case increment = "INCREMENT"
    /// RESTORE, C2h.
    case restore = "RESTORE"
    /// TRANSFER, B0h.
    case transfer = "TRANSFER"
    /// HLTA, 50h.
    case halt = "HLTA"
    /// Any other frame, including an empty one.
    case unknown = "UNKNOWN"

    /// The kind of `frame` from its first byte.
    public init(frame: [UInt8]) {
        let command = frame.first.flatMap { MifareClassicCommand(opcode: $0) }
        self = command.flatMap { Self(rawValue: $0.name) } ?? .unknown
    }

    /// The datasheet name.
    public var description: String { rawValue }
}
