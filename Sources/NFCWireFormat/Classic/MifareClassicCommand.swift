import HexText

/// A MIFARE Classic command as readers take it, named by its first byte: the one table the
/// session, the simulator, the command tracer and the PC/SC translation use.
///
/// The frames are those of the PN532's InDataExchange (NXP UM0701-02, section 7.3.8, "MIFARE
/// commands"): the reader runs the Crypto-1 handshake of an authentication itself and sends a
/// WRITE's two parts (command, then the 16 data bytes) on its own, so one frame is one
/// operation here:
///
/// | Command    | Frame                                        | Answer         |
/// |------------|----------------------------------------------|----------------|
/// | AUTH_A     | 60h, block, key A (6 bytes), UID (4 bytes)   | none (success) |
/// | AUTH_B     | 61h, block, key B (6 bytes), UID (4 bytes)   | none (success) |
/// | READ       | 30h, block                                   | 16 bytes       |
/// | WRITE      | A0h, block, 16 bytes                         | ACK            |
/// | DECREMENT  | C0h, block, 4-byte operand (LSB first)       | ACK            |
/// | INCREMENT  | C1h, block, 4-byte operand (LSB first)       | ACK            |
/// | RESTORE    | C2h, block, 4 bytes (ignored)                | ACK            |
/// | TRANSFER   | B0h, block                                   | ACK            |
///
/// The UID of an authentication is the last four bytes of the card's UID: the whole UID of a
/// 4-byte (NUID) card, UID3-UID6 of a 7-byte one (NXP AN10927, the cascade level the
/// Crypto-1 initialisation uses; libnfc's `nfc-mfclassic` passes the same bytes). The opcodes
/// and the access the chip checks are NXP MF1S50yyX section 9 (MF1S70yyX for 4K).
///
/// An authentication frame holds a key: ``redacted(_:)`` is the form any log or trace prints.
public struct MifareClassicCommand: Sendable, Hashable, CustomStringConvertible {
    /// The first byte of the frame.
    public let opcode: UInt8
    /// The datasheet's name, `AUTH_A`.
    public let name: String

    private init(_ opcode: UInt8, _ name: String) {
        self.opcode = opcode
        self.name = name
    }

    /// AUTH_A, 60h: authenticates the sector holding the block with key A.
    public static let authenticateA = MifareClassicCommand(0x60, "AUTH_A")
    /// AUTH_B, 61h: authenticates the sector holding the block with key B.
    public static let authenticateB = MifareClassicCommand(0x61, "AUTH_B")
    /// READ, 30h: one 16-byte block.
    public static let read = MifareClassicCommand(0x30, "READ")
    /// WRITE, A0h: one 16-byte block.
    public static let write = MifareClassicCommand(0xA0, "WRITE")
    /// DECREMENT, C0h: a value block's value minus the operand, into the transfer buffer.
    public static let decrement = MifareClassicCommand(0xC0, "DECREMENT")
    /// INCREMENT, C1h: a value block's value plus the operand, into the transfer buffer.
    public static let increment = MifareClassicCommand(0xC1, "INCREMENT")
    /// RESTORE, C2h: a value block's value, unchanged, into the transfer buffer.
    public static let restore = MifareClassicCommand(0xC2, "RESTORE")
    /// TRANSFER, B0h: the transfer buffer into a value block.
    public static let transfer = MifareClassicCommand(0xB0, "TRANSFER")
    /// HLTA, 50h 00h (ISO/IEC 14443-3 6.4.3).
    public static let halt = MifareClassicCommand(0x50, "HLTA")

    /// Every command this table names.
    public static let all: [MifareClassicCommand] = [
        .authenticateA, .authenticateB, .read, .write, .decrement, .increment, .restore, .transfer, .halt,
    ]

    /// The command whose first byte is `opcode`, when the table names one.
    public init?(opcode: UInt8) {
        guard let command = Self.all.first(where: { $0.opcode == opcode }) else { return nil }
        self = command
    }

    /// The length of an authentication frame: opcode, block, key, UID.
    public static let authenticationFrameLength = 12
    /// The length of a WRITE frame: opcode, block, 16 data bytes.
    public static let writeFrameLength = 18
    /// The length of a value operation frame (DECREMENT, INCREMENT, RESTORE): opcode, block, 4 bytes.
    public static let valueFrameLength = 6

    /// Whether this is AUTH_A or AUTH_B.
    public var isAuthentication: Bool { self == .authenticateA || self == .authenticateB }

    /// ``name``.
    public var description: String { name }

    /// The authentication frame for `block` with `key` (6 bytes) and the card's `uid` (its last
    /// four bytes are sent).
    public static func authenticationFrame(
        keyB: Bool, block: UInt8, key: some Collection<UInt8>, uid: some Collection<UInt8>
    ) -> [UInt8] {
        let command = keyB ? authenticateB : authenticateA
        return [command.opcode, block] + Array(key) + Array(uid.suffix(4))
    }

    /// The READ frame for `block`.
    public static func readFrame(block: UInt8) -> [UInt8] { [read.opcode, block] }

    /// The WRITE frame for `block` with `data` (16 bytes).
    public static func writeFrame(block: UInt8, data: some Collection<UInt8>) -> [UInt8] {
        [write.opcode, block] + Array(data)
    }

    /// The name of the command a frame starts with: `READ`, or `command 51h` for a byte the table
    /// does not name, `empty frame` for none.
    public static func name(of opcode: UInt8?) -> String {
        guard let opcode else { return "empty frame" }
        return MifareClassicCommand(opcode: opcode)?.name ?? "command \(Hex.byte(opcode))h"
    }

    /// `frame` with the key of an authentication replaced by six `**` placeholders, as logs and
    /// traces show it: `60 07 ** ** ** ** ** ** 11 22 33 44`. Other frames are shown as they are.
    public static func redacted(_ frame: [UInt8]) -> String {
        guard let first = frame.first, MifareClassicCommand(opcode: first)?.isAuthentication == true,
            frame.count >= 8
        else { return Hex.bytes(frame) }
        let hidden = [String](repeating: "**", count: 6).joined(separator: " ")
        let head = Hex.bytes(frame.prefix(2))
        let tail = frame.count > 8 ? " " + Hex.bytes(frame.dropFirst(8)) : ""
        return head + " " + hidden + tail
    }
}
