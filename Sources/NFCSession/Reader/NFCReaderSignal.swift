import NFCWireFormat

/// What a reader shows a person with its lights and buzzer (``NFCReaderSignalling``).
public enum NFCReaderSignal: String, Sendable, Hashable, CaseIterable, Codable {
    /// The tag was done: green light and a short beep.
    case success
    /// The tag failed: red light and a long beep.
    case failure
    /// Blink a few times, so a person can tell which reader this is.
    case identify
}

/// A reader with lights or a buzzer for the person at it: an optional capability next to
/// ``NFCReaderDevice``; find it with `reader as? any NFCReaderSignalling`.
///
/// Signals are feedback only: showing one never fails an operation, and a reader that cannot
/// show them (``supportsSignals`` false) ignores them.
public protocol NFCReaderSignalling: AnyObject, Sendable {
    /// Whether this reader has lights or a buzzer that ``signal(_:)`` drives (a PC/SC reader, for
    /// example, only with the ACR122U profile).
    var supportsSignals: Bool { get }

    /// Shows `signal`.
    ///
    /// - Returns: whether the reader showed it (false when it has no lights, refused the
    ///   command, or is gone).
    @discardableResult
    func signal(_ signal: NFCReaderSignal) async -> Bool
}

extension ACR122ULightCommand {
    /// The command that shows `signal`.
    public static func showing(_ signal: NFCReaderSignal) -> ACR122ULightCommand {
        switch signal {
        case .success: success
        case .failure: failure
        case .identify: identify
        }
    }

    /// The signal this command shows, when it is one of ``success``, ``failure`` and ``identify``.
    public var signal: NFCReaderSignal? {
        NFCReaderSignal.allCases.first { Self.showing($0) == self }
    }
}
