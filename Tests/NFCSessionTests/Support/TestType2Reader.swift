import NFCSession
import Synchronization
import TagMemory
import TagSimulator

/// A reader over simulated Type 2 tags, with the fault injection the session tests need.
final class TestType2Reader: SimulatedField {
    private struct State {
        var tags: [SimulatedType2Tag]
        var present: [Bool]
        var selected: Int?
        var pendingRemoval: (remaining: Int, outcome: InFlightOutcome)?
        var pendingNak: (remaining: Int, code: UInt8)?
        var pendingSilentFailure: Int?
        var log: [FieldCommand] = []
        var selectCount = 0
        var closed = false
    }

    let name = "test:type2"
    let capabilities: NFCReaderCapabilities
    private let state: Mutex<State>
    private let versionAnswer: [UInt8]?

    init(tags: [SimulatedType2Tag], capabilities: NFCReaderCapabilities, versionAnswer: [UInt8]? = nil) {
        self.capabilities = capabilities
        self.versionAnswer = versionAnswer
        self.state = Mutex(State(tags: tags, present: tags.map { _ in true }))
    }

    func tag(_ slot: Int) -> SimulatedType2Tag { state.withLock { $0.tags[slot] } }

    @discardableResult
    func insert(_ tag: SimulatedType2Tag) -> Int {
        state.withLock { state in
            state.tags.append(tag)
            state.present.append(true)
            return state.tags.count - 1
        }
    }

    func remove(_ slot: Int) {
        state.withLock { state in Self.takeOut(slot, from: &state) }
    }

    func putBack(_ slot: Int) { state.withLock { $0.present[slot] = true } }

    func removeTag(afterCommands count: Int, inFlight outcome: InFlightOutcome) {
        state.withLock { $0.pendingRemoval = (count, outcome) }
    }

    func answerNak(afterCommands count: Int, code: UInt8) {
        state.withLock { $0.pendingNak = (count, code) }
    }

    func acknowledgeWithoutWriting(afterCommands count: Int) {
        state.withLock { $0.pendingSilentFailure = count }
    }

    var log: [FieldCommand] { state.withLock { $0.log } }

    func clearLog() { state.withLock { $0.log = [] } }

    var selectCount: Int { state.withLock { $0.selectCount } }

    func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        try state.withLock { state throws(NFCReaderError) in
            guard !state.closed else { throw NFCReaderError(.readerUnavailable, "closed") }
            let targets = state.tags.indices.filter { state.present[$0] }.map { slot in
                NFCTargetInfo(index: slot, uid: Self.uid(of: state.tags[slot]), atqa: [0x44, 0x00], sak: 0x00)
            }
            return capabilities.detectsMultipleTargets ? targets : Array(targets.prefix(1))
        }
    }

    func select(_ target: NFCTargetInfo) async throws(NFCReaderError) {
        try state.withLock { state throws(NFCReaderError) in
            guard !state.closed else { throw NFCReaderError(.readerUnavailable, "closed") }
            let slot = target.index
            guard state.tags.indices.contains(slot), state.present[slot],
                Self.uid(of: state.tags[slot]) == target.uid
            else {
                throw NFCReaderError(.tagConnectionLost, "no such tag in the field")
            }
            if let selected = state.selected, selected != slot { state.tags[selected].halt() }
            state.tags[slot].select()
            state.selected = slot
            state.selectCount += 1
        }
    }

    func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        try state.withLock { state throws(NFCReaderError) in
            guard !state.closed else { throw NFCReaderError(.readerUnavailable, "closed") }
            guard let slot = state.selected, state.present[slot] else {
                throw NFCReaderError(.tagConnectionLost, "no tag selected")
            }
            let kind = SimulatedType2Command(frame: frame)
            if kind == .fastRead, !capabilities.supportsFastRead {
                throw NFCReaderError(.unsupportedFeature, "no FAST_READ")
            }
            if kind != .read, kind != .write, !capabilities.supportsRawCommands {
                throw NFCReaderError(.unsupportedFeature, "no raw commands")
            }
            state.log.append(FieldCommand(slot: slot, frame: frame))
            if let removal = state.pendingRemoval {
                if removal.remaining == 0 {
                    Self.finishInFlight(frame, outcome: removal.outcome, tag: &state.tags[slot])
                    state.pendingRemoval = nil
                    Self.takeOut(slot, from: &state)
                    throw NFCReaderError(.tagConnectionLost, "the tag left the field")
                }
                state.pendingRemoval = (removal.remaining - 1, removal.outcome)
            }
            if let nak = state.pendingNak {
                state.pendingNak = nak.remaining == 0 ? nil : (nak.remaining - 1, nak.code)
                if nak.remaining == 0 {
                    // An invalid READ makes the simulated tag NAK and fall back to IDLE.
                    _ = state.tags[slot].transceive([0x30, 0xFF])
                    return .nak(nak.code)
                }
            }
            if let remaining = state.pendingSilentFailure {
                state.pendingSilentFailure = remaining == 0 ? nil : remaining - 1
                if remaining == 0 { return .ack }
            }
            if kind == .getVersion, let versionAnswer, state.tags[slot].state == .active {
                _ = state.tags[slot].transceive(frame)
                return .data(versionAnswer)
            }
            switch state.tags[slot].transceive(frame) {
            case .data(let bytes):
                guard bytes.count <= capabilities.maximumFrameSize else {
                    throw NFCReaderError(.tagResponseError, "answer longer than the reader's frame")
                }
                return .data(bytes)
            case .ack: return .ack
            case .nak(let code): return .nak(code)
            case .silent: throw NFCReaderError(.tagConnectionLost, "no answer")
            }
        }
    }

    func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        throw NFCReaderError(.unsupportedFeature, "no ISO-DEP")
    }

    func releaseTargets() async {
        state.withLock { state in
            if let slot = state.selected { state.tags[slot].halt() }
            state.selected = nil
        }
    }

    func close() async { state.withLock { $0.closed = true } }

    /// The 7-byte UID in a tag's pages 0-1 (bytes 0-2 and 4-7).
    private static func uid(of tag: SimulatedType2Tag) -> [UInt8] {
        Array(tag.bytes[0..<3] + tag.bytes[4..<8])
    }

    private static func takeOut(_ slot: Int, from state: inout State) {
        state.present[slot] = false
        state.tags[slot].fieldOff()
        if state.selected == slot { state.selected = nil }
    }

    /// Applies what the tag did with the frame in flight as it left.
    private static func finishInFlight(_ frame: [UInt8], outcome: InFlightOutcome, tag: inout SimulatedType2Tag) {
        switch outcome {
        case .none:
            return
        case .complete:
            _ = tag.transceive(frame)
        case .tear:
            guard frame.count == 6, frame[0] == 0xA2 else { return }
            let page = Int(frame[1])
            let protected = [2, 3] + (tag.chip.dynamicLock.map { [$0.page] } ?? [])
            guard !protected.contains(page), (page + 1) * 4 <= tag.bytes.count else { return }
            let old = Array(tag.bytes[(page * 4 + 2)..<(page * 4 + 4)])
            _ = tag.transceive(Array(frame[0..<4]) + old)
        }
    }
}
