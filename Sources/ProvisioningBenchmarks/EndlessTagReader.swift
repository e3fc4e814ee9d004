import NFCSession
import SimulatedReader
import Synchronization
import TagMemory
import TagSimulator

/// A simulated reader at which an endless stack of factory NTAG215 tags is presented, one at a
/// time, keeping nothing of the tags taken away: memory measured over thousands of tags is the
/// job's, not the simulator's.
///
/// The tag in the field is taken away at the first poll after it was selected (the session
/// then waits for its removal) and a new one, with the next UID of a SplitMix64 sequence, goes in.
final class EndlessTagReader: NFCReaderDevice {
    private let reader: SimulatedReader
    private let state: Mutex<State>

    private struct State {
        var generator: SplitMix64
        var current: [UInt8]
        var selected = false
        var presented = 1
    }

    /// A reader with a first tag in the field; UIDs come from `seed`.
    init(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let uid = Self.uid(&generator)
        reader = SimulatedReader(name: "endless", tag: .type2(SimulatedType2Tag(chip: .ntag215, uid: uid)))
        state = Mutex(State(generator: generator, current: uid))
    }

    /// The tags presented so far.
    var presented: Int { state.withLock { $0.presented } }

    var name: String { reader.name }
    var capabilities: NFCReaderCapabilities { reader.capabilities }

    func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        let swap: ([UInt8], [UInt8])? = state.withLock { state in
            guard state.selected else { return nil }
            let old = state.current
            state.current = Self.uid(&state.generator)
            state.selected = false
            state.presented += 1
            return (old, state.current)
        }
        if let (old, new) = swap {
            reader.withField { field in
                _ = field.remove(uid: old)
                _ = field.insert(.type2(SimulatedType2Tag(chip: .ntag215, uid: new)))
            }
        }
        return try await reader.pollTargets()
    }

    func select(_ target: NFCTargetInfo) async throws(NFCReaderError) {
        try await reader.select(target)
        state.withLock { $0.selected = true }
    }

    func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        try await reader.transceive(frame)
    }

    func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        try await reader.sendAPDU(apdu)
    }

    func releaseTargets() async { await reader.releaseTargets() }

    func close() async { await reader.close() }

    /// A 7-byte UID: 04h, then six bytes of the sequence.
    private static func uid(_ generator: inout SplitMix64) -> [UInt8] {
        let value = generator.next()
        return [0x04] + (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
