import NFCSession

extension TracingReader: NFCReaderSignalling {
    /// Whether the reader underneath has lights or a buzzer ndeftool drives.
    var supportsSignals: Bool { (base as? any NFCReaderSignalling)?.supportsSignals ?? false }

    /// Shows `signal` on the reader underneath; false when it cannot.
    @discardableResult
    func signal(_ signal: NFCReaderSignal) async -> Bool {
        guard let signalling = base as? any NFCReaderSignalling else { return false }
        return await signalling.signal(signal)
    }
}
