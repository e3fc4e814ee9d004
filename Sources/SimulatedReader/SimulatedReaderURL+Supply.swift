extension SimulatedReaderURL {
    /// A stack of fresh tags presented one after another (`supply=N`, with `seed=S`,
    /// `duplicate=K` and `swap-ms=MS`): see ``TagSimulator/SimulatedTagSupply``.
    public struct Supply: Sendable, Hashable {
        /// The seed used when none is given.
        public static let defaultSeed: UInt64 = 1

        /// How many distinct tags the supply holds.
        public var count: Int
        /// The seed of the UIDs (``TagSimulator/SimulatedTagSupply/uids(count:seed:)``).
        public var seed: UInt64
        /// The 1-based position of the tag presented a second time, right after the next one.
        public var duplicate: Int?
        /// How long after a tag is taken away the next one goes in, in milliseconds.
        public var swapMilliseconds: Int

        /// Creates a supply description.
        public init(count: Int, seed: UInt64 = defaultSeed, duplicate: Int? = nil, swapMilliseconds: Int = 0) {
            self.count = count
            self.seed = seed
            self.duplicate = duplicate
            self.swapMilliseconds = swapMilliseconds
        }

        /// The URL items, in canonical order.
        var items: [String] {
            var items = ["supply=\(count)"]
            if seed != Self.defaultSeed { items.append("seed=\(seed)") }
            if let duplicate { items.append("duplicate=\(duplicate)") }
            if swapMilliseconds != 0 { items.append("swap-ms=\(swapMilliseconds)") }
            return items
        }
    }
}
