import NFCSession
import TagMemory
import TagSimulator

/// What happens to the command in flight when a tag leaves the field.
enum InFlightOutcome: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The tag executed the command; its answer was lost.
    case complete
    /// The tag never executed the command.
    case none
    /// A WRITE to a page without tearing protection programmed its first 2 bytes only (the last 2
    /// keep their old value); NTAG213/215/216 8.5.2 and 8.5.6 protect pages 2, 3 and the dynamic
    /// lock page, where a torn write leaves the old content. Other commands: as ``none``.
    case tear

    var description: String { rawValue }
}

/// One frame a reader sent to a tag.
struct FieldCommand: Sendable, Hashable, CustomStringConvertible {
    /// The slot of the tag it went to.
    var slot: Int
    /// The frame, without CRC.
    var frame: [UInt8]

    /// The command kind, by its first byte.
    var kind: SimulatedType2Command { SimulatedType2Command(frame: frame) }

    var description: String {
        let hex = frame.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + text : text
        }
        return "\(kind) " + hex.dropFirst().joined(separator: " ")
    }
}

/// A simulated reader field as the tests drive it: the reader the session uses, the tags in it,
/// fault injection and the log of commands.
///
/// Tests reach this only through ``makeField(_:capabilities:)``: another implementation (a
/// simulator backend with the same controls) replaces the test reader by changing that function.
protocol SimulatedField: NFCReaderDevice {
    /// The tag in `slot`, in its current state (also while out of the field).
    func tag(_ slot: Int) -> SimulatedType2Tag
    /// Puts another tag into the field; returns its slot.
    @discardableResult func insert(_ tag: SimulatedType2Tag) -> Int
    /// Takes the tag in `slot` out of the field (it powers down).
    func remove(_ slot: Int)
    /// Puts the tag in `slot` back into the field.
    func putBack(_ slot: Int)
    /// After `count` more frames are answered, the next frame finds its tag leaving the field with
    /// `outcome`; the reader reports the tag gone.
    func removeTag(afterCommands count: Int, inFlight outcome: InFlightOutcome)
    /// After `count` more frames are answered, the next frame is refused with NAK `code` without
    /// being executed, as a tag with an EEPROM failure would; the tag goes back to IDLE (9.3).
    func answerNak(afterCommands count: Int, code: UInt8)
    /// After `count` more frames are answered, the next frame is answered ACK without being
    /// executed: a tag whose EEPROM silently fails, which only a read-back reveals.
    func acknowledgeWithoutWriting(afterCommands count: Int)
    /// Every frame sent, in order.
    var log: [FieldCommand] { get }
    /// Forgets the log.
    func clearLog()
    /// The number of SELECTs.
    var selectCount: Int { get }
}

extension SimulatedField {
    /// The frames of `kind` in the log.
    func count(of kind: SimulatedType2Command) -> Int { log.filter { $0.kind == kind }.count }
}

/// The field used by every test in this target: the one place to change for another backend.
///
/// `versionAnswer` replaces every tag's GET_VERSION answer (a chip outside the catalogue).
func makeField(
    _ tags: [SimulatedType2Tag],
    capabilities: NFCReaderCapabilities = .testDefault,
    versionAnswer: [UInt8]? = nil
) -> any SimulatedField {
    TestType2Reader(tags: tags, capabilities: capabilities, versionAnswer: versionAnswer)
}

extension NFCReaderCapabilities {
    /// A PN532-like reader: 252-byte frames, raw commands and FAST_READ, several targets seen.
    static let testDefault = NFCReaderCapabilities(
        maximumFrameSize: 252, supportsRawCommands: true, supportsFastRead: true, supportsISODEP: false,
        detectsMultipleTargets: true)

    /// A PC/SC reader with only READ and WRITE (PC/SC Part 3 storage commands).
    static let readWriteOnly = NFCReaderCapabilities(
        maximumFrameSize: 252, supportsRawCommands: false, supportsFastRead: false, supportsISODEP: false,
        detectsMultipleTargets: true)
}
