import NDEF
import TagMemory
import Testing

@Suite("Type 4 capability container (T4T 3.0, 5.1)")
struct Type4CapabilityContainerTests {
    @Test("The nfc-facts example CC: version 2.0, MLe 59, MLc 52, E104 of 255 bytes (5.1, 5.1.2)")
    func exampleCC() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        #expect(cc.mappingVersion == 0x20)
        #expect(cc.majorVersion == 2 && cc.minorVersion == 0)
        #expect(cc.maximumResponseDataSize == 59)
        #expect(cc.maximumCommandDataSize == 52)
        #expect(
            cc.ndefFile
                == Type4FileControl(
                    kind: .ndef, fileIdentifier: 0xE104, maximumFileSize: 255, readAccess: .granted,
                    writeAccess: .granted)
        )
        #expect(cc.additionalTLVs.isEmpty)
        #expect(cc.length == 15)
        #expect(cc.messageLengthFieldSize == 2)
        #expect(cc.writeAccessOffset == 0x0E)
        #expect(cc.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: 253))
        #expect(cc.conformanceIssues.isEmpty)
        #expect(!cc.supportsOffsetDataObjects)
    }

    @Test("NTAG 424 DNA factory CC: proprietary file E105 kept, bytes after CCLEN ignored (5.1, 5.1.2)")
    func ntag424CC() throws {
        let fixture = try Type4Fixture.load("cc-v2-ntag424-dna-factory.hex")
        #expect(fixture.bytes.count == 32)
        let cc = try Type4CapabilityContainer(parsing: fixture.bytes)
        #expect(cc.maximumResponseDataSize == 256)
        #expect(cc.maximumCommandDataSize == 255)
        #expect(cc.ndefFile.fileIdentifier == 0xE104 && cc.ndefFile.maximumFileSize == 256)
        #expect(
            cc.additionalTLVs == [
                .fileControl(
                    Type4FileControl(
                        kind: .proprietary, fileIdentifier: 0xE105, maximumFileSize: 0x80,
                        readAccess: Type4AccessCondition(rawValue: 0x82),
                        writeAccess: Type4AccessCondition(rawValue: 0x83)))
            ])
        #expect(cc.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: 254))
        #expect(try cc.encoded() == Array(fixture.bytes.prefix(0x17)))
    }

    @Test("Version 1.0 CC reads with the same layout (coexistence with mapping version 1.0)")
    func version1CC() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v1-desfire-format.hex")
        #expect(cc.majorVersion == 1)
        #expect(cc.ndefFile.maximumFileSize == 1024)
        #expect(cc.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: 1022))
        // File identifier 0000 is reserved from version 2.0 on, not in version 1.0.
        var bytes = try Type4Fixture.load("cc-v1-desfire-format.hex").bytes
        bytes[9] = 0x00
        bytes[10] = 0x00
        #expect(try Type4CapabilityContainer(parsing: bytes).ndefFile.fileIdentifier == 0x0000)
        bytes[2] = 0x20
        #expect(throws: TagMemoryError(.notFormatted, "")) { try Type4CapabilityContainer(parsing: bytes) }
    }

    @Test("Version 3.0 CC with the Extended NDEF File Control TLV: 4-byte size, ENLEN, write access at 10 (5.1.2)")
    func version3CC() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")
        #expect(cc.length == 0x11)
        #expect(cc.ndefFile.kind == .extendedNDEF)
        #expect(cc.ndefFile.maximumFileSize == 0x1_0000)
        #expect(cc.messageLengthFieldSize == 4)
        #expect(cc.writeAccessOffset == 0x10)
        #expect(cc.supportsOffsetDataObjects)
        #expect(cc.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: 65532))
        #expect(cc.conformanceIssues.isEmpty)
    }

    @Test("Access conditions give CoreNFC's status (5.1.2: 00 granted, 80-FE proprietary, FF none)")
    func accessStatus() throws {
        let readOnly = try Type4Fixture.capabilityContainer("cc-v2-read-only.hex")
        #expect(readOnly.ndefStatus == NDEFTagStatus(status: .readOnly, capacity: 2046))
        let proprietary = try Type4Fixture.capabilityContainer("cc-v2-proprietary-access.hex")
        #expect(proprietary.ndefFile.readAccess.isProprietary)
        #expect(proprietary.ndefFile.fileIdentifier == 0x0001)
        #expect(proprietary.ndefStatus == NDEFTagStatus(status: .readOnly, capacity: 510))
        var noRead = readOnly
        noRead.ndefFile.readAccess = .none
        #expect(noRead.ndefStatus == NDEFTagStatus(status: .notSupported, capacity: 0))
        // A CC file saying read access FF still parses: the tag is just not readable.
        var bytes = try noRead.encoded()
        #expect(bytes[13] == 0xFF)
        #expect(try Type4CapabilityContainer(parsing: bytes).ndefStatus.status == .notSupported)
        bytes[13] = 0x7F
        #expect(throws: TagMemoryError(.notFormatted, "")) { try Type4CapabilityContainer(parsing: bytes) }
    }

    @Test(
        "Access condition classes (5.1.2)",
        arguments: [(0x00, "g"), (0x01, "r"), (0x7F, "r"), (0x80, "p"), (0xFE, "p"), (0xFF, "n")])
    func accessClasses(raw: Int, kind: String) {
        let condition = Type4AccessCondition(rawValue: UInt8(raw))
        #expect(condition.isGranted == (kind == "g"))
        #expect(condition.isReserved == (kind == "r"))
        #expect(condition.isProprietary == (kind == "p"))
        #expect(condition.isNone == (kind == "n"))
    }

    @Test("MLc below 000D parses with a conformance issue, as readers accept it (5.1)")
    func smallMLc() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-mlc-1.hex")
        #expect(cc.maximumCommandDataSize == 1)
        #expect(cc.conformanceIssues.count == 1)
        #expect(cc.conformanceIssues.first?.contains("MLc") == true)
    }

    @Test("A TLV kind of the other version is tolerated with an issue (5.1.2)")
    func tlvVersionMismatch() throws {
        var v3 = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")
        v3.mappingVersion = 0x20
        let parsed = try Type4CapabilityContainer(parsing: v3.encoded())
        #expect(parsed.ndefFile.kind == .extendedNDEF)
        #expect(parsed.conformanceIssues.count == 1)
        var v2 = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        v2.mappingVersion = 0x30
        #expect(try Type4CapabilityContainer(parsing: v2.encoded()).conformanceIssues.count == 1)
    }

    @Test("Version 3.0 lets an NDEF File Control TLV describe up to FFFE bytes; 2.0 stops at 7FFF (5.1.2)")
    func sizeRanges() throws {
        var cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        cc.ndefFile.maximumFileSize = 0x7FFF
        #expect(try Type4CapabilityContainer(parsing: cc.encoded()).ndefFile.maximumFileSize == 0x7FFF)
        cc.ndefFile.maximumFileSize = 0x8000
        #expect(throws: TagMemoryError(.notFormatted, "")) { try Type4CapabilityContainer(parsing: cc.encoded()) }
        cc.mappingVersion = 0x30
        cc.ndefFile.maximumFileSize = 0xFFFE
        #expect(try Type4CapabilityContainer(parsing: cc.encoded()).ndefFile.maximumFileSize == 0xFFFE)
        cc.ndefFile.maximumFileSize = 0xFFFF
        #expect(throws: TagMemoryError(.notFormatted, "")) { try Type4CapabilityContainer(parsing: cc.encoded()) }
        var extended = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")
        for (size, valid) in [(6, false), (7, true), (0xFFFF_FFFE, true), (0xFFFF_FFFF, false)] {
            extended.ndefFile.maximumFileSize = size
            let bytes = try extended.encoded()
            if valid {
                #expect(try Type4CapabilityContainer(parsing: bytes).ndefFile.maximumFileSize == size)
            } else {
                #expect(throws: TagMemoryError(.notFormatted, "")) { try Type4CapabilityContainer(parsing: bytes) }
            }
        }
    }

    @Test("Reserved file identifiers are refused (5.1.2)", arguments: [0x0000, 0xE102, 0xE103, 0x3F00, 0x3FFF, 0xFFFF])
    func reservedIdentifiers(identifier: Int) throws {
        var cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        cc.ndefFile.fileIdentifier = UInt16(identifier)
        #expect(throws: TagMemoryError(.notFormatted, "")) { try Type4CapabilityContainer(parsing: cc.encoded()) }
    }

    @Test("Optional TLVs round-trip, including an unknown one with a 3-byte length (5.1.2)")
    func optionalTLVs() throws {
        var cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        cc.additionalTLVs = [
            .fileControl(Type4FileControl(kind: .proprietary, fileIdentifier: 0xE105, maximumFileSize: 128)),
            .other(type: 0x07, value: [1, 2, 3]),
            .other(type: 0x08, value: Array(repeating: 0xAB, count: 300)),
        ]
        let bytes = try cc.encoded()
        #expect(bytes.count == 15 + 8 + 5 + 304)
        #expect(Array(bytes[28..<32]) == [0x08, 0xFF, 0x01, 0x2C])
        #expect(try Type4CapabilityContainer(parsing: bytes) == cc)
        // A 3-byte length under FF is refused, as Nordic's TLV parser does.
        var short = try Type4Fixture.load("cc-v2-example.hex").bytes + [0x07, 0xFF, 0x00, 0x01, 0x00]
        short[1] = UInt8(short.count)
        #expect(throws: TagMemoryError(.malformedTLV, "")) { try Type4CapabilityContainer(parsing: short) }
    }

    @Test("Every CC fixture round-trips through encoded() (5.1)")
    func roundTrips() throws {
        for name in Type4Fixture.names(prefix: "cc-") {
            let fixture = try Type4Fixture.load(name)
            let cc = try Type4CapabilityContainer(parsing: fixture.bytes)
            let encoded = try cc.encoded()
            #expect(encoded == Array(fixture.bytes.prefix(cc.length)), "\(name)")
            #expect(try Type4CapabilityContainer(parsing: encoded) == cc, "\(name)")
        }
    }

    @Test("Every truncation of a valid CC fails with truncated-image, never a trap (5.1)")
    func truncations() throws {
        for name in Type4Fixture.names(prefix: "cc-") {
            let bytes = try Type4Fixture.load(name).bytes
            let cc = try Type4CapabilityContainer(parsing: bytes)
            for count in 0..<cc.length {
                #expect(throws: TagMemoryError(.truncatedImage, ""), "\(name) cut to \(count)") {
                    try Type4CapabilityContainer(parsing: Array(bytes.prefix(count)))
                }
            }
            // The same bytes inside a larger buffer parse the same (offsets relative to the slice).
            let framed = [0xEE] + bytes + [0xEE]
            #expect(try Type4CapabilityContainer(parsing: framed[1..<(framed.count - 1)]) == cc)
        }
    }

    @Test("Hostile CC fixtures fail with their documented error (5.1, 5.1.1, 5.1.2)")
    func hostileFixtures() throws {
        let names = Type4Fixture.names(prefix: "hostile-cc-")
        #expect(names.count >= 10)
        for name in names {
            let fixture = try Type4Fixture.load(name)
            let code = try #require(fixture.expectedError.flatMap(TagMemoryError.Code.init(rawValue:)), "\(name)")
            #expect(throws: TagMemoryError(code, ""), "\(name)") {
                try Type4CapabilityContainer(parsing: fixture.bytes)
            }
        }
    }

    @Test("Encoding refuses values that do not fit their fields")
    func encodingLimits() throws {
        var cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        cc.maximumResponseDataSize = 70000
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try cc.encoded() }
        cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        cc.ndefFile.maximumFileSize = 0x1_0000
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try cc.encoded() }
        cc.ndefFile = Type4FileControl(kind: .proprietary, fileIdentifier: 0xE104, maximumFileSize: 100)
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try cc.encoded() }
    }
}
