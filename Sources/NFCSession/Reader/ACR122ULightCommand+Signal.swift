import NFCWireFormat

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
