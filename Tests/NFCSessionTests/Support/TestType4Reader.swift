import NFCSession
import Synchronization
import TagMemory

/// A Type 4 tag for the session tests: the NDEF Tag Application with a CC file (E103) and one NDEF
/// file, answering SELECT, READ BINARY and UPDATE BINARY (NFC Forum Type 4 Tag 3.0, 5.5) with
/// ISO/IEC 7816-4 status words.
struct TestType4Card: Sendable {
    /// The CC file.
    var capabilityContainer: [UInt8]
    /// The NDEF file, its full size.
    var ndefFile: [UInt8]
    /// The mapping version of the application identifier it answers to (1: D2760000850100).
    var applicationVersion = 2

    /// A version 2.0 card: MLe 3Bh, MLc 34h, NDEF file E104 of `size` bytes, with `writeAccess`.
    static func standard(size: Int = 255, writeAccess: UInt8 = 0x00, message: [UInt8] = []) -> TestType4Card {
        let cc: [UInt8] = [
            0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0xE1, 0x04,
            UInt8(truncatingIfNeeded: size >> 8), UInt8(truncatingIfNeeded: size), 0x00, writeAccess,
        ]
        var file = [UInt8](repeating: 0, count: size)
        let content =
            [UInt8(truncatingIfNeeded: message.count >> 8), UInt8(truncatingIfNeeded: message.count)] + message
        file.replaceSubrange(0..<min(size, content.count), with: content.prefix(size))
        return TestType4Card(capabilityContainer: cc, ndefFile: file)
    }

    /// The message the NDEF file holds (nil for NLEN 0 or a bad NLEN).
    var messageBytes: [UInt8]? {
        let length = Int(ndefFile[0]) << 8 | Int(ndefFile[1])
        guard length > 0, length + 2 <= ndefFile.count else { return nil }
        return Array(ndefFile[2..<(2 + length)])
    }
}

/// The Type 4 reader used by the tests in this target: the one place to change for another backend.
func makeType4Field(_ card: TestType4Card, supportsISODEP: Bool = true) -> TestType4Reader {
    TestType4Reader(card: card, supportsISODEP: supportsISODEP)
}

/// An ISO-DEP reader holding one ``TestType4Card``, with a command log and removal after N APDUs.
final class TestType4Reader: NFCReaderDevice {
    private struct State {
        var card: TestType4Card
        var present = true
        var applicationSelected = false
        var selectedFile: UInt16?
        var log: [[UInt8]] = []
        var pendingRemoval: (remaining: Int, completes: Bool)?
    }

    let name = "test:type4"
    let capabilities: NFCReaderCapabilities
    private let state: Mutex<State>

    init(card: TestType4Card, supportsISODEP: Bool = true) {
        self.state = Mutex(State(card: card))
        self.capabilities = NFCReaderCapabilities(
            maximumFrameSize: 252, supportsRawCommands: true, supportsFastRead: false,
            supportsISODEP: supportsISODEP, detectsMultipleTargets: true)
    }

    /// The card in its current state.
    var card: TestType4Card { state.withLock { $0.card } }
    /// Every APDU sent.
    var log: [[UInt8]] { state.withLock { $0.log } }
    /// The UPDATE BINARY commands sent.
    var updateCount: Int { log.filter { $0.count > 1 && $0[1] == 0xD6 }.count }

    func clearLog() { state.withLock { $0.log = [] } }

    /// After `count` more APDUs, the next finds the card leaving: executed (`completes`) or not.
    func removeCard(afterCommands count: Int, completes: Bool) {
        state.withLock { $0.pendingRemoval = (count, completes) }
    }

    func putBack() {
        state.withLock { state in
            state.present = true
            state.applicationSelected = false
            state.selectedFile = nil
        }
    }

    func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        guard state.withLock({ $0.present }) else { return [] }
        return [
            NFCTargetInfo(
                index: 0, uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], atqa: [0x44, 0x03], sak: 0x20,
                ats: [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
        ]
    }

    func select(_ target: NFCTargetInfo) async throws(NFCReaderError) {
        try state.withLock { state throws(NFCReaderError) in
            guard state.present else { throw NFCReaderError(.tagConnectionLost, "no card") }
            state.applicationSelected = false
            state.selectedFile = nil
        }
    }

    func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        throw NFCReaderError(.unsupportedFeature, "an ISO-DEP card")
    }

    func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        try state.withLock { state throws(NFCReaderError) in
            guard state.present else { throw NFCReaderError(.tagConnectionLost, "no card") }
            state.log.append(apdu)
            if let removal = state.pendingRemoval {
                if removal.remaining == 0 {
                    if removal.completes { _ = Self.answer(apdu, &state) }
                    state.pendingRemoval = nil
                    state.present = false
                    throw NFCReaderError(.tagConnectionLost, "the card left the field")
                }
                state.pendingRemoval = (removal.remaining - 1, removal.completes)
            }
            return Self.answer(apdu, &state)
        }
    }

    func releaseTargets() async {}

    func close() async {}

    /// The response APDU of the card.
    private static func answer(_ apdu: [UInt8], _ state: inout State) -> [UInt8] {
        guard apdu.count >= 4, apdu[0] == 0x00 else { return [0x6E, 0x00] }
        let p1p2 = Int(apdu[2]) << 8 | Int(apdu[3])
        switch apdu[1] {
        case 0xA4 where apdu[2] == 0x04:
            let aid = Array(apdu.dropFirst(5).prefix(7))
            let wanted: [UInt8] = [
                0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, UInt8(state.card.applicationVersion == 1 ? 0 : 1),
            ]
            state.applicationSelected = aid == wanted
            state.selectedFile = nil
            return state.applicationSelected ? [0x90, 0x00] : [0x6A, 0x82]
        case 0xA4 where apdu[2] == 0x00 && apdu.count >= 7:
            let file = UInt16(apdu[5]) << 8 | UInt16(apdu[6])
            guard state.applicationSelected, file == 0xE103 || file == 0xE104 else { return [0x6A, 0x82] }
            state.selectedFile = file
            return [0x90, 0x00]
        case 0xB0:
            guard let file = state.selectedFile, apdu.count == 5 else { return [0x69, 0x86] }
            let content = file == 0xE103 ? state.card.capabilityContainer : state.card.ndefFile
            guard p1p2 <= content.count else { return [0x6B, 0x00] }
            let length = apdu[4] == 0 ? 256 : Int(apdu[4])
            return Array(content[p1p2..<min(content.count, p1p2 + length)]) + [0x90, 0x00]
        case 0xD6:
            guard state.selectedFile == 0xE104, apdu.count >= 5 else { return [0x69, 0x86] }
            guard state.card.capabilityContainer[14] == 0x00 else { return [0x69, 0x82] }
            let data = Array(apdu.dropFirst(5))
            guard data.count == Int(apdu[4]), p1p2 + data.count <= state.card.ndefFile.count else {
                return [0x6A, 0x84]
            }
            state.card.ndefFile.replaceSubrange(p1p2..<(p1p2 + data.count), with: data)
            return [0x90, 0x00]
        default:
            return [0x6D, 0x00]
        }
    }
}
