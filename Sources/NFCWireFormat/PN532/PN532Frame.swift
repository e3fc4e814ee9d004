/// A frame of the PN532's host link (PN532 User Manual UM0701, section 6.2.1), the same in
/// both directions on the High Speed UART (HSU):
/// - normal information frame: `00 00 FF LEN LCS TFI PD0 ... PDn DCS 00` (6.2.1.1), LEN
///   counting TFI and the data, LCS with LEN + LCS = 0 and DCS with TFI + PD0 + ... + DCS = 0
///   (modulo 256);
/// - extended information frame: `00 00 FF FF FF LENM LENL LCS TFI ... DCS 00` (6.2.1.2), for
///   more than a normal frame carries, with LENM + LENL + LCS = 0;
/// - ACK `00 00 FF 00 FF 00` (6.2.1.3) and NACK `00 00 FF FF 00 00` (6.2.1.4);
/// - the error frame `00 00 FF 01 FF 7F 81 00` (6.2.1.5, "syntax error"), an information frame
///   whose only byte is TFI 7F.
///
/// TFI is D4 from the host to the PN532 and D5 back.
public enum PN532Frame: Sendable, Hashable {
    /// An information frame: TFI and the data after it (the LEN bytes).
    case information([UInt8])
    /// ACK: the PN532 took a command; from the host, "abort the command in progress" (or, after
    /// SetSerialBaudRate, "switch the baud rate now").
    case ack
    /// NACK: the host asks for the last response frame again.
    case nack

    /// TFI of a frame from the host to the PN532.
    public static let hostToChip: UInt8 = 0xD4
    /// TFI of a frame from the PN532 to the host.
    public static let chipToHost: UInt8 = 0xD5
    /// TFI of the error frame.
    public static let errorIdentifier: UInt8 = 0x7F

    /// The longest information a host frame may carry: TFI, the command code and 263 bytes
    /// (the PN532's 265-byte host buffer; nfcpy's line test fills it).
    public static let maximumHostLength = 265
    /// The longest information sent in a normal frame. LEN FF would be one more, but hosts
    /// (nfcpy) read a LEN of FF as the start of an extended frame, so longer answers go in
    /// extended frames.
    public static let maximumNormalLength = 254

    public static let ackBytes: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    public static let nackBytes: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
    /// The error frame (UM0701 6.2.1.5).
    public static let errorBytes: [UInt8] = [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]

    /// Whether this is the error frame.
    public var isError: Bool { self == .information([Self.errorIdentifier]) }

    /// The bytes on the wire; nil for an information frame that is empty or longer than an
    /// extended frame can say (65535 bytes).
    public var encoded: [UInt8]? {
        switch self {
        case .ack: return Self.ackBytes
        case .nack: return Self.nackBytes
        case .information(let information):
            guard let length = UInt16(exactly: information.count), length > 0 else { return nil }
            var bytes: [UInt8] = [0x00, 0x00, 0xFF]
            if information.count <= Self.maximumNormalLength {
                let short = UInt8(truncatingIfNeeded: length)
                bytes += [short, 0 &- short]
            } else {
                let high = UInt8(truncatingIfNeeded: length >> 8)
                let low = UInt8(truncatingIfNeeded: length)
                bytes += [0xFF, 0xFF, high, low, 0 &- (high &+ low)]
            }
            bytes += information
            bytes += [0 &- Self.checksum(information), 0x00]
            return bytes
        }
    }

    /// The sum of `bytes` modulo 256.
    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt8 {
        bytes.reduce(0, &+)
    }
}
