import Foundation
import HexText
import NDEF
import TagInspection
import TagMemory
import TestSupport
import Testing

/// `ndeftool inspect`, run as the built binary over the dumps in `Fixtures/tags/` (hex text, one
/// page per line) and `Fixtures/dumps/` (raw, hex text, Flipper, proxmark3 binary and JSON).
@Suite(.timeLimit(.minutes(5))) struct InspectCommandTests {
    /// Every fixture file inspect reads: the Type 2 images and the dump files.
    static let fixtures: [String] = {
        let manager = FileManager.default
        let tags = (try? manager.contentsOfDirectory(atPath: path("Fixtures/tags"))) ?? []
        let dumps = (try? manager.contentsOfDirectory(atPath: path("Fixtures/dumps"))) ?? []
        return
            (tags.filter { $0.hasSuffix(".hex") }.map { "Fixtures/tags/" + $0 } + dumps.map { "Fixtures/dumps/" + $0 })
            .sorted()
    }()

    /// Fixtures that are not readable dumps, with the line the error names: a page cut to 2
    /// bytes in hex text (HexTextDump: a line holds 4 or 16 bytes).
    static let malformed = ["Fixtures/tags/ntag213-hostile-truncated-before-cc.hex": 7]

    /// The keys every JSON report has (null when they do not apply).
    static let keys: Set<String> = [
        "dump", "chip", "uid", "uidDetails", "capabilityContainer", "locks", "tlvs", "warnings", "regions", "password",
        "signature",
        "counters", "tearingFlags", "status", "statusReason", "capacity", "ndefTLVAddress", "ndef", "message",
        "problem",
    ]

    static func path(_ relative: String) -> String { PackagePaths.root.appendingPathComponent(relative).path }

    /// The JSON report of `fixture`.
    static func json(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await BinaryRunner.run(["inspect", "--json"] + arguments)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any])
    }

    @Test func shortMessageText() async throws {
        let result = try await BinaryRunner.run(["inspect", Self.path("Fixtures/tags/ntag213-short-message.hex")])
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(result.outputText == Self.shortMessageText)
    }

    /// NTAG213 datasheet 8.5: 45 pages, Lock Control TLV 01 03 A0 0C 34 (lock bytes 160-161),
    /// CC E1 10 12 00 (144 bytes), CFG0 04 00 00 FF (AUTH0 FFh); capacity 160 - 21 - 2 = 137.
    static let shortMessageText = """
        dump: hex text dump, 45 pages of 4 bytes (180 bytes)
        chip: NTAG213 (NT2H1311), 45 pages, 144 bytes of user memory
          identified by the page count, 45
        UID: 04:17:28:39:4A:5B:6C; BCC0 B3 correct, BCC1 44 correct
        capability container: E1 10 12 00 (page 3)
          magic E1h: NDEF formatted; mapping version 1.0
          data area: 144 bytes announced, pages 4-39
          access: read 0h (granted), write 0h (granted)
        static lock bytes: 00 00 (bytes 10-11): no page locked
        dynamic lock bytes: 00 00 00 (bytes 160-162): no page locked
        locked pages: 0-1 (pages 0-1: the UID, locked at the factory)
        TLVs:
          Lock Control (01h) at bytes 16-20 (pages 4-5), length 3: lock bytes 160-161, 12 lock bits of 8 bytes
          NDEF Message (03h) at bytes 21-38 (pages 5-9), length 16
          Terminator (FEh) at byte 39 (page 9)
        memory map:
          pages 0-1               UID0-2, BCC0, UID3-6 (locked at the factory)
          page 2                  BCC1, internal byte, static lock bytes
          page 3                  capability container
          pages 4-39              NDEF data area
          page 40                 dynamic lock bytes
          bytes 160-161 (page 40) reserved by a Lock or Memory Control TLV
          pages 41-44             configuration: CFG0, CFG1, PWD, PACK
        password protection (PWD_AUTH): off: AUTH0 FFh is past the last page (44)
          ACCESS 00h (page 42): PROT 0 (writes only), CFGLCK 0 (open), AUTHLIM 0 (unlimited attempts)
          NFC counter: NFC_CNT_EN 0 (off), NFC_CNT_PWD_PROT 0 (READ_CNT needs no password)
          PWD: not recorded in the dump (a tag reads it back as zeros)
          PACK: not recorded in the dump (a tag reads it back as zeros)
        originality signature: not in the dump
        counters: not in the dump
        NDEF: read/write, capacity 137 bytes
        NDEF message: 1 record, 16 bytes
        record 0: well-known (TNF 1), type "U", payload 12 bytes
          URI: https://example.com
        page map (secrets shown as **):
             page   hex          ascii  role           lock
                0   04 17 28 B3  ..(.   UID            locked
                1   39 4A 5B 6C  9J[l   UID            locked
                2   44 48 00 00  DH..   static lock
                3   E1 10 12 00  ....   CC
                4   01 03 A0 0C  ....   TLV
                5   34 03 10 D1  4...   NDEF TLV
                6   01 0C 55 04  ..U.   NDEF TLV
                7   65 78 61 6D  exam   NDEF TLV
                8   70 6C 65 2E  ple.   NDEF TLV
                9   63 6F 6D FE  com.   NDEF TLV
            10-39   00 00 00 00  ....   data (30 pages, all 00)
               40   00 00 00 00  ....   dynamic lock
               41   04 00 00 FF  ....   CFG0
               42   00 00 00 00  ....   CFG1
               43   ** ** ** **         PWD
               44   ** ** ** **         PACK

        """

    @Test func flipperPartialReadText() async throws {
        let result = try await BinaryRunner.run(["inspect", Self.path("Fixtures/dumps/ntag213-uri-flipper-v3.nfc")])
        #expect(result.status == 0)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        // Flipper v3 file: "Pages read: 41" of 45; the configuration pages 41-44 were not read, so
        // the zeros Flipper keeps there must not be read as AUTH0 00h (everything protected).
        #expect(
            lines.first
                == "dump: Flipper NFC file, 45 pages of 4 bytes (180 bytes); 41 of 45 pages read (pages 41-44 not used)"
        )
        #expect(lines[1] == "  ATQA 00 44, SAK 00, 0 failed authentication attempts recorded")
        #expect(lines[3] == "  identified by GET_VERSION 00 04 04 02 01 00 0F 03", "NTAG213 datasheet 10.1")
        #expect(lines.contains("password protection (PWD_AUTH): the configuration pages 41-44 are not in the image"))
        // The fixture's signature is the bytes 10h-2Fh, which no NXP key made.
        #expect(
            lines.contains(
                "originality signature: NOT VALID: not signed by NXP (a clone, or a chip this tool does not know)"))
        #expect(
            lines.contains("counters (READ_CNT 0-2): 0, 0, 7; tearing flags 00 00 BD; the NFC counter is counter 2"))
        let json = try await Self.json([Self.path("Fixtures/dumps/ntag213-uri-flipper-v3.nfc")])
        let password = try #require(json["password"] as? [String: Any])
        #expect(password["configurationInImage"] as? Bool == false)
        #expect(password["auth0"] is NSNull)
    }

    @Test("PWD and PACK a libnfc --pw dump records are never shown, only that they differ (NTAG213 8.5.7)")
    func secretsNeverShown() async throws {
        let file = Self.path("Fixtures/dumps/ntag213-uri-libnfc-pw.mfd")
        let text = try await BinaryRunner.run(["inspect", file])
        let json = try await BinaryRunner.run(["inspect", "--json", file])
        for output in [text.outputText, json.outputText] {
            for secret in ["12 34 56 78", "12345678", "AB CD", "ABCD", "abcd", "12 34", "1234"] {
                #expect(!output.contains(secret), "\(secret)")
            }
        }
        #expect(text.outputText.contains("\n  PWD: recorded, differs from the factory default (not shown)\n"))
        #expect(text.outputText.contains("\n  PACK: recorded, differs from the factory default (not shown)\n"))
        let password = try #require(try await Self.json([file])["password"] as? [String: Any])
        #expect(password["pwd"] as? String == "changed")
        #expect(password["pack"] as? String == "changed")
        #expect(password["auth0"] as? Int == 0xFF)
        #expect(password["fromPage"] is NSNull)
    }

    @Test("A password-protected NTAG215: AUTH0 04h, PROT, AUTHLIM 3 (NTAG215 datasheet 8.8)")
    func passwordProtected() async throws {
        let file = Self.path("Fixtures/tags/ntag215-password-protected.hex")
        let text = try await BinaryRunner.run(["inspect", file]).outputText
        #expect(
            text.contains(
                "\npassword protection (PWD_AUTH): on: AUTH0 04h, pages 4-134 need authentication to be written and read\n"
                    + "  ACCESS 83h (page 132): PROT 1 (reads too), CFGLCK 0 (open), AUTHLIM 3 (failures counted; "
                    + "at the limit protected pages are lost)\n"))
        let password = try #require(try await Self.json([file])["password"] as? [String: Any])
        #expect(password["fromPage"] as? Int == 4)
        #expect(password["readProtected"] as? Bool == true)
        #expect(password["attemptLimit"] as? Int == 3)
        #expect(password["pwd"] as? String == "notRecorded")
    }

    @Test("A MIFARE Classic image: MAD, NDEF sectors, TLVs and the message (AN10787, AN1304)")
    func mifareClassic() async throws {
        let file = Self.path("Fixtures/dumps/mifare-classic-1k-ndef-libnfc.mfd")
        let result = try await BinaryRunner.run(["inspect", file])
        #expect(result.status == 0)
        #expect(
            result.outputText == """
                dump: raw memory image, 64 MIFARE Classic blocks of 16 bytes (1024 bytes)
                UID: DE:AD:BE:EF; BCC 22 correct
                card: MIFARE Classic 1K, 16 sectors
                MAD: version 1, CRC correct
                NDEF sectors: 1
                TLVs:
                  NDEF Message (03h) at bytes 64-82 (blocks 4-5), length 17
                  Terminator (FEh) at byte 83 (block 5)
                NDEF: read/write, capacity 46 bytes
                NDEF message: 1 record, 17 bytes
                record 0: well-known (TNF 1), type "U", payload 13 bytes
                  URI: https://www.proxmark.com

                """)
        let json = try await Self.json([file])
        #expect(json["status"] as? String == "readWrite")
        #expect(json["capacity"] as? Int == 46)
        #expect(json["ndef"] as? String == "d1010d550270726f786d61726b2e636f6d")
        #expect(json["message"] is [String: Any])
        #expect(json["chip"] is NSNull)
        #expect(json["problem"] is NSNull)
        let classic = try #require(json["classic"] as? [String: Any])
        #expect(classic["madVersion"] as? Int == 1)
        #expect(classic["madCRCValid"] as? Bool == true)
        #expect(classic["ndefSectors"] as? [Int] == [1])
        let tlvs = try #require(json["tlvs"] as? [[String: Any]])
        #expect((tlvs.first?["blocks"] as? [String: Any]) != nil)
        #expect((json["dump"] as? [String: Any])?["blocks"] as? Int == 64)
    }

    @Test("Every fixture: exit status, JSON keys, and the status and message the library reads", arguments: fixtures)
    func everyFixture(_ fixture: String) async throws {
        let file = Self.path(fixture)
        let text = try await BinaryRunner.run(["inspect", file])
        if let line = Self.malformed[fixture] {
            #expect(text.status == 65)
            #expect(text.output.isEmpty)
            #expect(text.error.hasPrefix("Error: malformed hex text dump in '\(file)' at byte "))
            #expect(text.error.contains(": line \(line): "))
            #expect(try await BinaryRunner.run(["inspect", "--json", file]).status == 65)
            return
        }
        #expect(text.status == 0, "\(text.error)")
        #expect(text.outputText.contains("\nNDEF: "))
        let json = try await Self.json([file])
        #expect(Set(json.keys).subtracting(["classic"]) == Self.keys)

        // What the library says about the same file.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let dump = try TagDump(decoding: bytes, fileName: file)
        let status = json["status"] as? String
        #expect(["readWrite", "readOnly", "notSupported"].contains(status))
        guard dump.layout == .type2 else {
            let memory = MifareClassicMemory(dump: dump)
            #expect(json["classic"] is [String: Any])
            #expect(status == memory.ndefStatus.status.rawValue)
            #expect(json["capacity"] as? Int == memory.ndefStatus.capacity)
            return
        }
        let used = Array(dump.memory.prefix((dump.readPageCount ?? dump.pageCount) * 4))
        let memory = Type2Memory(bytes: used, chip: dump.chipIdentification?.chip)
        #expect(status == memory.ndefStatus.status.rawValue)
        #expect(json["capacity"] as? Int == memory.ndefStatus.capacity)
        if let ndef = memory.ndefMessageBytes {
            #expect(json["ndef"] as? String == Hex.encode(ndef))
        } else {
            #expect(json["ndef"] is NSNull)
        }
        if let message = memory.message {
            let decoded = try await BinaryRunner.run(
                ["decode", "--json", "--hex", "-"], input: Array(Hex.encode(try message.encoded()).utf8))
            let expected = try JSONSerialization.jsonObject(with: Data(decoded.output)) as? NSDictionary
            #expect((json["message"] as? NSDictionary) == expected, "the message as decode --json prints it")
        } else {
            #expect(json["message"] is NSNull)
        }
        #expect((json["problem"] is NSNull) == (memory.problem == nil))
        #expect((json["chip"] as? [String: Any])?["name"] as? String == dump.chipIdentification?.chip?.name)
        #expect((json["tlvs"] as? [Any])?.count ?? -1 >= memory.tlvs.count)
        #expect((json["regions"] as? [Any])?.count == memory.regions.count)
    }
}
