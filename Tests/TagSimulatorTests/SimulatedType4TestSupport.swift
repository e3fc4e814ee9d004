import NDEF
import TagMemory
import TagSimulator
import TestSupport
import Testing

extension SimulatedType4Tag {
    /// A tag of `configuration` (holding `message`, if given), already activated.
    static func active(
        _ configuration: Configuration = Configuration(), message: NFCNDEFMessage? = nil
    ) throws -> SimulatedType4Tag {
        var tag =
            if let message {
                try SimulatedType4Tag(configuration: configuration, message: message)
            } else {
                try SimulatedType4Tag(configuration: configuration)
            }
        tag.select()
        return tag
    }

    /// Sends an APDU written in hex; the answer, or nil when the tag is silent.
    mutating func send(_ apdu: String) -> [UInt8]? {
        transceiveAPDU(hex(apdu))
    }

    /// The status word of the answer to an APDU written in hex (0 when the tag is silent).
    mutating func status(_ apdu: String) -> UInt16 {
        guard let answer = send(apdu), answer.count >= 2 else { return 0 }
        return UInt16(answer[answer.count - 2]) << 8 | UInt16(answer[answer.count - 1])
    }

    /// SELECTs the NDEF Tag Application, then `file`, as T4T 3.0 5.4.2 and 5.4.3 do; true
    /// when both answer 9000.
    mutating func open(_ file: UInt16) -> Bool {
        let major = configuration.majorVersion
        return transceive(.selectNDEFApplication(majorVersion: major))?.isSuccess == true
            && transceive(.selectFile(file, majorVersion: major))?.isSuccess == true
    }

    /// READ BINARY of `length` bytes at `offset` (B0 or B1, as ``Type4Command`` builds it),
    /// unwrapped; nil unless the answer is 9000.
    mutating func readFile(offset: Int, length: Int) throws -> [UInt8]? {
        let command = try Type4Command.readBinary(offset: offset, length: length)
        guard let response = transceive(command), response.isSuccess else { return nil }
        return try response.binaryData(for: command)
    }
}

extension SimulatedType4Tag {
    /// `length` bytes at `offset` in READ BINARY commands of at most `piece` bytes; nil when
    /// one of them fails.
    mutating func readPieces(offset: Int, length: Int, piece: Int) throws -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count < length {
            guard let part = try readFile(offset: offset + bytes.count, length: min(piece, length - bytes.count)),
                !part.isEmpty
            else { return nil }
            bytes += part
        }
        return bytes
    }
}

/// The URI record https://www.proxmark.com (D1 01 0D 55 02 "proxmark.com"), the message of
/// Fixtures/tags/type4/ndef-uri-short.hex.
let proxmarkMessage = NFCNDEFMessage(records: [
    NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x02] + Array("proxmark.com".utf8))
])

/// A text record message of `count` bytes of text ("en", UTF-8).
func type4TextMessage(count: Int) -> NFCNDEFMessage {
    let text = (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    return NFCNDEFMessage(records: [
        NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [0x02] + Array("en".utf8) + text)
    ])
}

/// The configurations the version-independent tests run on: mapping versions 1.0, 2.0 and 3.0.
let type4Versions: [SimulatedType4Tag.Configuration] = [
    SimulatedType4Tag.Configuration(mappingVersion: 0x10, maximumResponseDataSize: 0x3B, maximumCommandDataSize: 0x34),
    SimulatedType4Tag.Configuration(),
    SimulatedType4Tag.Configuration(mappingVersion: 0x30, maximumNDEFFileSize: 0x0400),
]
