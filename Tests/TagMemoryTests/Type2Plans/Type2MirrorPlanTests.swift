import NDEF
import TagMemory
import TestSupport
import Testing

/// The UID and NFC counter mirror of NTAG213/215/216 (datasheet NTAG213/215/216 Rev. 3.2, 8.7):
/// where a writer may place it, the configuration writes, and the image as the writer left it.
@Suite("Type 2 mirror plans")
struct Type2MirrorPlanTests {
    /// The last MIRROR_PAGE and MIRROR_BYTE the datasheet allows for each mode (8.7.1-8.7.3, the
    /// tables of valid MIRROR_PAGE values: NTAG213 UID 24h, counter 26h, both 22h; NTAG215 7Eh,
    /// 80h, 7Ch; NTAG216 DEh, E0h, DCh; the last page with MIRROR_BYTE up to 1, 1 and 2).
    static let limits: [(chip: Type2Chip, mode: Type2Configuration.MirrorMode, page: Int, byte: Int)] = [
        (.ntag213, .uid, 0x24, 1), (.ntag213, .nfcCounter, 0x26, 1), (.ntag213, .uidAndNFCCounter, 0x22, 2),
        (.ntag215, .uid, 0x7E, 1), (.ntag215, .nfcCounter, 0x80, 1), (.ntag215, .uidAndNFCCounter, 0x7C, 2),
        (.ntag216, .uid, 0xDE, 1), (.ntag216, .nfcCounter, 0xE0, 1), (.ntag216, .uidAndNFCCounter, 0xDC, 2),
    ]

    /// A message of one unknown-TNF record whose payload is `filler` bytes, then `mode`'s
    /// placeholder, and the request naming it.
    static func message(filler: Int, mode: Type2Configuration.MirrorMode) throws -> ([UInt8], Type2MirrorRequest) {
        let payload = [UInt8](repeating: UInt8(ascii: "a"), count: filler) + mode.placeholder
        let bytes = try NFCNDEFMessage(records: [NFCNDEFPayload(format: .unknown, type: [], payload: payload)])
            .encoded()
        return (bytes, Type2MirrorRequest(mode: mode, messageOffset: bytes.count - mode.textLength))
    }

    @Test("8.7: every placement the datasheet allows is taken, up to its last page and byte; one more is refused")
    func datasheetLimits() throws {
        for limit in Self.limits {
            // NXP's CC announces less than the user memory on NTAG215 (496 of 504 bytes) and
            // NTAG216 (872 of 888): a CC announcing all of it lets a message reach the limit.
            var image = try Type2PlanSupport.formatted(limit.chip).bytes
            image[14] = UInt8(limit.chip.userMemorySize / 8)
            let memory = Type2Memory(bytes: image, chip: limit.chip)
            var last: Type2Configuration.Mirror?
            var refusals = 0
            for filler in 0...limit.chip.userMemorySize {
                let (bytes, request) = try Self.message(filler: filler, mode: limit.mode)
                guard bytes.count <= memory.ndefStatus.capacity else { break }
                do {
                    let placed = try memory.mirrorPlacement(for: request, messageBytes: bytes)
                    #expect(refusals == 0, "\(limit.chip.name) \(limit.mode.name): taken after a refusal")
                    last = placed
                } catch {
                    #expect(error.code == .invalidArgument, "\(error)")
                    #expect(error.reason.contains("past byte 2"), "\(error.reason)")
                    refusals += 1
                }
            }
            let context = "\(limit.chip.name) \(limit.mode.name)"
            #expect(
                last?.page == limit.page && last?.byte == limit.byte, "\(context): last \(String(describing: last))")
            #expect(last?.mode == limit.mode, "\(context)")
            #expect(refusals > 0, "\(context): a placement past the limit was refused")
        }
    }

    @Test("8.7: the mirror starts at the first placeholder character, wherever the NDEF TLV begins")
    func placementOnFormattedNTAG213() throws {
        // NTAG213 ships with a Lock Control TLV: the NDEF TLV's T is byte 21, L 22, the message from 23.
        let memory = try Type2PlanSupport.formatted(.ntag213)
        #expect(memory.ndefTLVAddress == 21)
        let (bytes, request) = try Self.message(filler: 2, mode: .uid)
        let placed = try memory.mirrorPlacement(for: request, messageBytes: bytes)
        // Record header 3 bytes (SR, no type), 2 filler bytes: the placeholder at 23 + 5 = 28.
        #expect(placed == Type2Configuration.Mirror(mode: .uid, byte: 0, page: 7))
    }

    @Test("A placeholder missing at the offset, a chip without mirror, a message too long: refused")
    func refusals() throws {
        let memory = try Type2PlanSupport.formatted(.ntag215)
        var (bytes, request) = try Self.message(filler: 4, mode: .uid)
        request.messageOffset -= 1
        #expect(throws: TagMemoryError.self) { try memory.mirrorPlacement(for: request, messageBytes: bytes) }
        request.messageOffset += 1
        let ev1 = try Type2PlanSupport.formatted(.mifareUltralightEV1MF0UL21)
        let unsupported = #expect(throws: TagMemoryError.self) {
            try ev1.mirrorPlacement(for: request, messageBytes: bytes)
        }
        #expect(unsupported?.code == .unsupportedChip)
        (bytes, request) = try Self.message(filler: 600, mode: .uid)
        let tooLong = #expect(throws: TagMemoryError.self) {
            try memory.mirrorPlacement(for: request, messageBytes: bytes)
        }
        #expect(tooLong?.code == .insufficientCapacity)
    }

    @Test("8.5.7: CFG1 (NFC_CNT_EN) before CFG0; AUTH0 and STRG_MOD_EN kept; nothing when already set")
    func configurationPlan() throws {
        var memory = try Type2PlanSupport.formatted(.ntag215)
        // AUTH0 10h and STRG_MOD_EN, as a protected tag has them.
        memory = Type2Memory(
            bytes: Self.setting(page: 131, to: [0x04, 0x00, 0x00, 0x10], in: memory.bytes), chip: .ntag215)
        let mirror = Type2Configuration.Mirror(mode: .uidAndNFCCounter, byte: 2, page: 9)
        let plan = try memory.mirrorPlan(mirror, counterPasswordProtected: true)
        #expect(plan.steps.map(\.address) == [132, 131])
        #expect(plan.steps.first?.data == [0x18, 0x00, 0x00, 0x00])
        // MIRROR_CONF 11b, MIRROR_BYTE 10b, STRG_MOD_EN: 1110 0100 = E4h; MIRROR_PAGE 09h; AUTH0 10h.
        #expect(plan.steps.last?.data == [0xE4, 0x00, 0x09, 0x10])
        #expect(plan.requiresAuthentication)
        let done = try memory.applying(plan, authenticated: true)
        #expect(try done.mirrorPlan(mirror, counterPasswordProtected: true).steps.isEmpty)
        // Off again: CFG0 only, the counter left enabled.
        let off = try done.mirrorPlan(nil)
        #expect(off.steps.map(\.address) == [131])
        #expect(off.steps.first?.data == [0x04, 0x00, 0x00, 0x10])
        // A UID mirror leaves the counter bits as they are.
        let uid = try memory.mirrorPlan(Type2Configuration.Mirror(mode: .uid, byte: 0, page: 5))
        #expect(uid.steps.map(\.address) == [131])
    }

    @Test("8.5.7: CFGLCK refuses a mirror change before any write")
    func configurationLocked() throws {
        let memory = try Type2PlanSupport.formatted(.ntag213)
        let locked = Type2Memory(bytes: Self.setting(page: 42, to: [0x40, 0, 0, 0], in: memory.bytes), chip: .ntag213)
        let error = #expect(throws: TagMemoryError.self) {
            try locked.mirrorPlan(Type2Configuration.Mirror(mode: .uid, byte: 0, page: 6))
        }
        #expect(error?.code == .notWritable)
    }

    @Test("8.7: the image as the writer left it puts the placeholder back where the chip shows its text")
    func unmirrored() throws {
        let memory = try Type2PlanSupport.formatted(.ntag215)
        var bytes = Self.setting(page: 131, to: [0xC4, 0x00, 0x06, 0xFF], in: memory.bytes)
        bytes = Self.setting(page: 132, to: [0x10, 0, 0, 0], in: bytes)
        let shown = Array("04517CA24B3580x00002A".utf8)
        bytes.replaceSubrange(24..<45, with: shown)
        let written = Type2Memory(bytes: bytes, chip: .ntag215).unmirrored()
        #expect(Array(written.bytes[24..<45]) == Type2Configuration.MirrorMode.uidAndNFCCounter.placeholder)
        // With the counter off, only the UID is shown, so only it is put back.
        bytes = Self.setting(page: 132, to: [0x00, 0, 0, 0], in: bytes)
        let uidOnly = Type2Memory(bytes: bytes, chip: .ntag215).unmirrored()
        #expect(Array(uidOnly.bytes[24..<45]) == Array("00000000000000x00002A".utf8))
    }

    /// `image` with `page` holding `data`.
    static func setting(page: Int, to data: [UInt8], in image: [UInt8]) -> [UInt8] {
        var image = image
        image.replaceSubrange(Type2Page.bytes(of: page), with: data)
        return image
    }
}

/// `{uid-mirror}` and `{counter-mirror}` in the words a message is made from.
@Suite("Type 2 mirror templates")
struct Type2MirrorTemplateTests {
    /// A message of one URI record (or a Smart Poster holding it) made from `words[0]`.
    static func uri(_ words: [String]) throws -> NFCNDEFMessage {
        NFCNDEFMessage(records: [try URIRecord(uri: words[0]).makeRecord()])
    }

    @Test("8.7: one placeholder, or both as {uid-mirror}x{counter-mirror}; found in the encoding")
    func placeholders() throws {
        let cases: [(String, Type2Configuration.MirrorMode, Int)] = [
            // D1 01 len 55 04, then "x.example/?u=" (13): the placeholder at 5 + 13.
            ("https://x.example/?u={uid-mirror}", .uid, 18),
            ("https://x.example/?c={counter-mirror}", .nfcCounter, 18),
            ("https://x.example/?m={uid-mirror}x{counter-mirror}&v=1", .uidAndNFCCounter, 18),
        ]
        for (uri, mode, offset) in cases {
            let template = try Type2MirrorTemplate(words: [uri])
            #expect(template.mode == mode)
            let made = try template.message(words: [uri], build: Self.uri)
            let request = try #require(made.request, "\(uri)")
            #expect(request.mode == mode && request.messageOffset == offset, "\(uri): \(request)")
            let bytes = try made.message.encoded()
            #expect(Array(bytes[offset..<(offset + mode.textLength)]) == mode.placeholder)
        }
        let plain = try Type2MirrorTemplate(words: ["https://x.example/"]).message(
            words: ["https://x.example/"], build: Self.uri)
        #expect(plain.request == nil)
    }

    @Test("8.7: twice, or the two apart, is refused with the rule")
    func refused() {
        for words in [
            ["https://x/?a={uid-mirror}&b={uid-mirror}"], ["https://x/?a={counter-mirror}", "{counter-mirror}"],
            ["https://x/?u={uid-mirror}&c={counter-mirror}"], ["https://x/?c={counter-mirror}x{uid-mirror}"],
        ] {
            #expect(throws: TagMemoryError.self, "\(words)") { try Type2MirrorTemplate(words: words) }
        }
    }

    @Test("Inside a Smart Poster the placeholder is found in the nested URI record")
    func smartPoster() throws {
        let words = ["https://x.example/t/{uid-mirror}"]
        let made = try Type2MirrorTemplate(words: words).message(words: words) { words in
            NFCNDEFMessage(records: [try SmartPosterRecord(uri: words[0]).makeRecord()])
        }
        let request = try #require(made.request)
        let bytes = try made.message.encoded()
        let at = request.messageOffset
        #expect(Array(bytes[at..<(at + 14)]) == Type2Configuration.MirrorMode.uid.placeholder)
        #expect(Array(bytes[(at - 3)..<at]) == Array("/t/".utf8))
    }

    @Test("A placeholder that a record does not store as ASCII (UTF-16 text) is refused")
    func notASCII() throws {
        let words = ["{uid-mirror}"]
        #expect(throws: TagMemoryError.self) {
            try Type2MirrorTemplate(words: words).message(words: words) { words in
                NFCNDEFMessage(records: [try TextRecord(text: words[0], encoding: .utf16).makeRecord()])
            }
        }
    }
}
