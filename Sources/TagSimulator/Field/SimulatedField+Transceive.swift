import TagMemory

extension SimulatedField {
    /// A command as the field's log names it.
    public enum Command: Sendable, Hashable, CustomStringConvertible {
        /// A Type 2 frame, by the kind the receiving tag took it for.
        case type2(SimulatedType2Command)
        /// A command APDU, by its kind (``SimulatedType4Command/init(apdu:)``).
        case type4(SimulatedType4Command)
        /// A MIFARE Classic command frame, by its kind.
        case classic(SimulatedClassicCommand)

        public var description: String {
            switch self {
            case .type2(let command): command.description
            case .type4(let command): command.description
            case .classic(let command): command.description
            }
        }
    }

    /// One command sent into the field, as ``log`` records it.
    public struct LogEntry: Sendable, Hashable {
        /// What became of a command.
        public enum Fate: Sendable, Hashable {
            /// The selected tag answered and the answer arrived intact.
            case answered
            /// The selected tag answered and the answer arrived corrupted.
            case corrupted
            /// No tag answered: none selected, or the selected one was not ACTIVE.
            case unanswered
            /// The tags left the field during this command, with this outcome.
            case inFlight(InFlightOutcome)
            /// The tags had left the field: the command reached no tag.
            case lost
            /// The write was refused by ``Faults/nakWrite`` without being carried out.
            case writeRefused
            /// The write was acknowledged but not stored (``Faults/loseWrite``).
            case writeNotStored
        }

        /// The selected tag's UID when the command was sent, if any.
        public var uid: [UInt8]?
        /// The command.
        public var command: Command
        /// The frame (without CRC) or command APDU, as sent.
        public var bytes: [UInt8]
        /// What became of it.
        public var fate: Fate

        /// Creates a log entry.
        public init(uid: [UInt8]?, command: Command, bytes: [UInt8] = [], fate: Fate) {
            self.uid = uid
            self.command = command
            self.bytes = bytes
            self.fate = fate
        }
    }

    /// Sends one Type 2 command frame (without CRC), or a MIFARE Classic command frame
    /// (``NFCWireFormat/MifareClassicCommand``) to a Classic card, to the selected tag and
    /// returns what the reader receives, with the armed faults applied. A selected Type 4 tag
    /// takes the frame for no ISO-DEP block and does not answer (``SimulatedFieldReply/silent``).
    ///
    /// Every call counts towards ``Faults/removeAfterCommands`` (as does every
    /// ``transceiveAPDU(_:)``); the N-th ends as ``Faults/inFlight`` says and gets no answer, as
    /// does every later call until ``putBack()``. A write reaching an ACTIVE tag counts towards
    /// ``Faults/nakWrite`` and ``Faults/loseWrite``. Every answer counts towards
    /// ``Faults/corruptEveryNthResponse``. A GET_VERSION answered with data gets
    /// ``Faults/versionAnswer`` instead, when it is set.
    public mutating func transceive(_ frame: [UInt8]) -> SimulatedFieldReply<SimulatedType2Response> {
        let index = selectedIndex
        let uid = index.map { tags[$0].uid }
        let command = index.map { tags[$0].fieldCommand(of: frame) } ?? .type2(.init(frame: frame))
        guard let index = admit(command, frame, to: index, uid: uid, inFlight: { $0.carryOutInFlight(frame, at: $1) })
        else { return .silent }
        var fate = LogEntry.Fate.answered
        var response: SimulatedType2Response
        if let faulted = writeFault(frame, at: index) {
            (response, fate) = faulted
        } else {
            response = tags[index].transceiveType2(frame)
        }
        if command == .type2(.getVersion), case .data = response, let version = faults.versionAnswer {
            response = .data(version)
        }
        if response == .silent {
            record(uid, command, frame, .unanswered)
            return .silent
        }
        responsesSinceArmed += 1
        if let every = faults.corruptEveryNthResponse, every > 0, responsesSinceArmed % every == 0 {
            record(uid, command, frame, .corrupted)
            return .corrupted(Self.corrupting(response))
        }
        record(uid, command, frame, fate)
        return .answer(response)
    }

    /// The answer with its first data byte inverted; a 4-bit ACK or NAK as it is.
    static func corrupting(_ response: SimulatedType2Response) -> SimulatedType2Response {
        guard case .data(var bytes) = response, !bytes.isEmpty else { return response }
        bytes[0] ^= 0xFF
        return .data(bytes)
    }

    /// Applies ``Faults/inFlight`` to the command in flight for the tag at `index`.
    private mutating func carryOutInFlight(_ frame: [UInt8], at index: Int) {
        switch faults.inFlight {
        case .doesNothing: return
        case .completes: _ = tags[index].transceiveType2(frame)
        case .tearsPage:
            if case .classic(var card) = tags[index] {
                if card.tear(frame) { tags[index] = .classic(card) }
                return
            }
            guard case .type2(let tag) = tags[index], let page = tag.writtenPage(by: frame),
                !tag.isTearingProtected(page: page), let old = tag.page(page)
            else { return }
            var written = tag
            guard written.transceive(frame) == .ack, let new = written.page(page) else { return }
            written.overwrite(page: page, with: Array(new.prefix(2)) + Array(old.suffix(2)))
            tags[index] = .type2(written)
        }
    }

    mutating func record(_ uid: [UInt8]?, _ command: Command, _ bytes: [UInt8], _ fate: LogEntry.Fate) {
        if isRecordingCommands { log.append(LogEntry(uid: uid, command: command, bytes: bytes, fate: fate)) }
    }

    /// Counts one command for the faults and decides whether it reaches the selected tag: nil (the
    /// command logged, no answer) when the tags have left, when this command is the one
    /// ``Faults/removeAfterCommands`` takes them out on (`inFlight` carries it out as
    /// ``Faults/inFlight`` says), or when no tag is selected; else the tag's index.
    mutating func admit(
        _ command: Command, _ bytes: [UInt8], to index: Int?, uid: [UInt8]?,
        inFlight: (inout SimulatedField, Int) -> Void
    ) -> Int? {
        commandsSinceArmed += 1
        if tagsHaveLeft {
            record(uid, command, bytes, .lost)
            return nil
        }
        if !removalFired, let limit = faults.removeAfterCommands, commandsSinceArmed >= limit {
            if let index { inFlight(&self, index) }
            takeTagsOut()
            record(uid, command, bytes, .inFlight(faults.inFlight))
            return nil
        }
        guard let index else {
            record(uid, command, bytes, .unanswered)
            return nil
        }
        return index
    }
}
