import NDEF
import NFCSession
import SimulatedReader
import Synchronization
import TagMemory
import TagSimulator
import Testing

/// A message of one URI record (NFC Forum URI RTD 1.0, 3.2.2: prefix 04h = "https://") whose
/// encoding is exactly `length` bytes (at least 5): a short record up to 259 bytes (4-byte header),
/// a long record above (7-byte header; NDEF 1.0, 3.2.3 SR flag).
func uriMessage(length: Int, seed: UInt8 = 0) -> NFCNDEFMessage {
    let payloadLength = length - 4 <= 255 ? length - 4 : length - 7
    let text = (0..<max(0, payloadLength - 1)).map { UInt8(0x61 + (Int(seed) + $0) % 26) }
    return NFCNDEFMessage(records: [NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + text)])
}

/// The encoded bytes of `message` (test messages always encode).
func encoded(_ message: NFCNDEFMessage) -> [UInt8] {
    (try? message.encoded()) ?? []
}

/// A factory tag of `chip` holding `message`, written with TagMemory's plan (the simulator's own
/// write rules apply each page).
func tagHolding(_ message: NFCNDEFMessage?, chip: Type2Chip, uid: [UInt8] = SimulatedType2Tag.defaultUID)
    -> SimulatedType2Tag
{
    let factory = Type2Memory(bytes: SimulatedType2Tag.factoryImage(chip: chip, uid: uid), chip: chip)
    guard let message, let plan = try? factory.writePlan(for: message), let memory = try? factory.applying(plan)
    else { return SimulatedType2Tag(chip: chip, uid: uid) }
    return SimulatedType2Tag(chip: chip, image: memory.bytes)
}

/// What the tag's memory holds, read as a reader would (T2T 1.1, 6.4.1).
func stored(_ tag: SimulatedType2Tag) -> Type2Memory { Type2Memory(bytes: tag.bytes, chip: tag.chip) }

/// Opens a session on `reader` and returns its first tag, which must be a Type 2 tag.
func openTag(
    _ reader: SimulatedReader, options: NFCTagReaderSession.Options = .init()
) async throws -> (NFCTagReaderSession, NFCMiFareTag) {
    let session = NFCTagReaderSession(reader: reader, options: options)
    let tag = try await session.nextTag(timeout: .seconds(2))
    guard let type2 = tag as? NFCMiFareTag else {
        Issue.record("not a Type 2 tag")
        throw NFCReaderError(.tagNotSupported, "not a Type 2 tag")
    }
    return (session, type2)
}

/// The NFCReaderError `body` throws, or nil when it returns.
func caught(_ body: () async throws -> Void) async -> NFCReaderError? {
    do {
        try await body()
        return nil
    } catch let error as NFCReaderError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

/// Collects session events for assertions.
final class EventRecorder: Sendable {
    private let events = Mutex<[NFCSessionEvent]>([])

    /// The handler to give a session.
    var handler: @Sendable (NFCSessionEvent) -> Void { { event in self.events.withLock { $0.append(event) } } }

    /// The events so far.
    var all: [NFCSessionEvent] { events.withLock { $0 } }
}
