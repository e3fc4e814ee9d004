import NFCSession

extension SimulatedReaderOptions {
    /// The options of a tag supply (``SimulatedReaderURL/Supply``).
    struct SupplyOptions {
        var count: Int?
        var seed: UInt64?
        var duplicate: Int?
        var swapMilliseconds: Int?
    }

    /// The keys of a tag supply.
    static let supplyKeys = ["supply", "seed", "duplicate", "swap-ms"]

    /// The largest supply, in tags.
    static let maximumSupply = 100_000

    /// Reads one supply option; false when `key` is not one.
    mutating func takeSupply(key: String, value: String) throws(NFCReaderError) -> Bool {
        switch key {
        case "supply": supply.count = try number(value, key: key, range: 1...Self.maximumSupply)
        case "seed":
            guard value.utf8.count <= 20, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let seed = UInt64(value)
            else { throw error("seed=\(value): expected a whole number from 0 to \(UInt64.max)") }
            supply.seed = seed
        case "duplicate": supply.duplicate = try number(value, key: key, range: 1...Self.maximumSupply)
        case "swap-ms":
            supply.swapMilliseconds = try number(
                value, key: key, range: 0...SimulatedReaderURL.maximumLatencyMilliseconds)
        default:
            return false
        }
        return true
    }

    /// The supply the options describe, checked against the other options; nil without `supply`.
    func supplySettings() throws(NFCReaderError) -> SimulatedReaderURL.Supply? {
        guard let count = supply.count else {
            if supply.seed != nil || supply.duplicate != nil || supply.swapMilliseconds != nil {
                throw error("seed, duplicate and swap-ms describe a supply of tags: they need supply=N")
            }
            return nil
        }
        if let duplicate = supply.duplicate, duplicate > count {
            throw error("duplicate=\(duplicate): the supply has only \(count) tags")
        }
        if uid != nil { throw error("uid= names one tag: a supply's UIDs come from seed=S") }
        if secondTag { throw error("second-tag=1 cannot be used with supply: the supply has one tag in the field") }
        if let filePath, !filePath.hasSuffix("/") {
            throw error("file=\(filePath): with supply, file= names a directory, ending in \"/\" (file=tags/)")
        }
        return SimulatedReaderURL.Supply(
            count: count, seed: supply.seed ?? SimulatedReaderURL.Supply.defaultSeed, duplicate: supply.duplicate,
            swapMilliseconds: supply.swapMilliseconds ?? 0)
    }
}
