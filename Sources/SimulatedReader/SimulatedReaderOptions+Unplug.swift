import NFCSession

extension SimulatedReaderOptions {
    /// The options of an unplugged reader (``SimulatedReaderURL/Unplug``).
    struct UnplugOptions {
        var afterCommands: Int?
        var milliseconds: Int?
    }

    /// The keys of an unplugged reader.
    static let unplugKeys = ["unplug-after", "unplug-ms"]

    /// The longest time away, in milliseconds: one hour.
    static let maximumUnplugMilliseconds = 3_600_000

    /// Reads one unplug option; false when `key` is not one.
    mutating func takeUnplug(key: String, value: String) throws(NFCReaderError) -> Bool {
        switch key {
        case "unplug-after": unplug.afterCommands = try number(value, key: key, range: 0...1_000_000_000)
        case "unplug-ms": unplug.milliseconds = try number(value, key: key, range: 0...Self.maximumUnplugMilliseconds)
        default: return false
        }
        return true
    }

    /// The unplug the options describe; nil without `unplug-after`.
    func unplugSettings() throws(NFCReaderError) -> SimulatedReaderURL.Unplug? {
        guard let afterCommands = unplug.afterCommands else {
            if unplug.milliseconds != nil {
                throw error("unplug-ms says how long the reader stays away: it needs unplug-after=N")
            }
            return nil
        }
        return SimulatedReaderURL.Unplug(afterCommands: afterCommands, milliseconds: unplug.milliseconds)
    }
}
