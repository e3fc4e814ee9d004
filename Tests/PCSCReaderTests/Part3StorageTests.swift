import NFCSession
import NFCWireFormat
import TestSupport
import Testing

@testable import PCSCReader

/// PC/SC part 3 supplement 3.2.2.1: READ BINARY / UPDATE BINARY carry READ and WRITE; nothing
/// else passes a generic reader.
@Suite("PC/SC part 3 storage commands (generic profile)")
struct Part3StorageTests {
    let reader = "SCM SCL011 00 00"

    @Test("READ 30h and WRITE A2h become READ BINARY and UPDATE BINARY")
    func commands() throws {
        #expect(try Part3Storage.command(for: [0x30, 0x04], readerName: reader) == hex("FF B0 00 04 10"))
        #expect(
            try Part3Storage.command(for: hex("A2 05 01 02 03 04"), readerName: reader)
                == hex("FF D6 00 05 04 01 02 03 04"))
        #expect(StorageCardAPDU.getUID == hex("FF CA 00 00 00"))
        #expect(StorageCardAPDU.getHistoricalBytes == hex("FF CA 01 00 00"))
    }

    @Test(
        "other Type 2 commands are refused naming the command and the reader",
        arguments: [
            ("60", "GET_VERSION"), ("1B FF FF FF FF", "PWD_AUTH"), ("3A 04 0F", "FAST_READ"), ("3C 00", "READ_SIG"),
            ("39 02", "READ_CNT"), ("A0 04", "COMPATIBILITY_WRITE of page 4"), ("51", "command 51h"),
        ])
    func refused(frame: String, name: String) {
        let error = readerError { _ = try Part3Storage.command(for: hex(frame), readerName: reader) }
        #expect(error?.code == .unsupportedFeature)
        #expect(error?.reason.contains(name) == true)
        #expect(error?.reason.contains("\"\(reader)\"") == true)
    }

    @Test(
        "malformed READ and WRITE frames are invalid parameters", arguments: ["", "30", "30 04 00", "A2 04 01 02 03"])
    func malformed(frame: String) {
        #expect(
            readerError { _ = try Part3Storage.command(for: hex(frame), readerName: reader) }?.code == .invalidParameter
        )
    }

    @Test("90 00 is the data of a READ and the ACK of a WRITE")
    func success() throws {
        let page4 = hex("03 0F D1 01 0B 55 01 65 78 61 6D 70 6C 65 2E 63")
        #expect(try Part3Storage.response(page4 + [0x90, 0x00], to: [0x30, 0x04], readerName: reader) == .data(page4))
        #expect(try Part3Storage.response([0x90, 0x00], to: hex("A2 04 00 00 00 00"), readerName: reader) == .ack)
    }

    @Test(
        "failure statuses read as NAKs (the reader hides the tag's value)",
        arguments: [
            ("63 00", 0x0), ("69 81", 0x0), ("69 82", 0x0), ("69 86", 0x0), ("6A 82", 0x0), ("6B 00", 0x0),
            ("65 81", 0x5),
        ] as [(String, UInt8)])
    func naks(status: String, nak: UInt8) throws {
        #expect(try Part3Storage.response(hex(status), to: [0x30, 0x50], readerName: reader) == .nak(nak))
    }

    @Test("unsupported, other and truncated statuses")
    func errors() {
        for status in ["6A 81", "6D 00", "6E 00"] {
            let error = readerError {
                _ = try Part3Storage.response(hex(status), to: [0x30, 0x00], readerName: reader)
            }
            #expect(error?.code == .unsupportedFeature, "\(status)")
        }
        let other = readerError { _ = try Part3Storage.response(hex("6F 00"), to: [0x30, 0x00], readerName: reader) }
        #expect(other?.code == .tagResponseError)
        #expect(other?.reason.contains("6F00 unknown status") == true)
        for short in ["", "90"] {
            let error = readerError { _ = try Part3Storage.response(hex(short), to: [0x30, 0x00], readerName: reader) }
            #expect(error?.code == .tagConnectionLost, "a \(short.count / 2)-byte answer is never success")
        }
    }

    @Test("GET DATA gives the UID, or nil when refused")
    func getData() throws {
        #expect(try Part3Storage.getDataValue(hex("04 A1 B2 C3 D4 E5 F6 90 00")) == hex("04 A1 B2 C3 D4 E5 F6"))
        #expect(try Part3Storage.getDataValue(hex("6A 81")) == nil)
        #expect(readerError { _ = try Part3Storage.getDataValue([0x90]) }?.code == .tagConnectionLost)
    }
}
