extension ReconnectingReader: NFCReaderSignalling {
    /// Shows `signal` on the reader now open; false when it has no lights, or none is open (a
    /// reconnect is under way).
    @discardableResult
    public func signal(_ signal: NFCReaderSignal) async -> Bool {
        guard supportsSignals, let reader = try? currentReader() as? any NFCReaderSignalling else { return false }
        return await reader.signal(signal)
    }
}
