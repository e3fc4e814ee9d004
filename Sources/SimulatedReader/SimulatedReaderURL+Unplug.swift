extension SimulatedReaderURL {
    /// The reader pulled out of its socket mid-job and plugged back (`unplug-after=N`, with
    /// `unplug-ms=M`): see ``SimulatedReader/unplug(afterCommands:for:)``.
    public struct Unplug: Sendable, Hashable {
        /// The tag commands (Type 2 frames and APDUs that reach the field, counted across every
        /// tag of a supply) carried out and answered before the reader goes away; 0: it is away
        /// from the start.
        public var afterCommands: Int
        /// How long the reader stays away, in milliseconds; nil: it never comes back.
        public var milliseconds: Int?

        /// Creates an unplug description.
        public init(afterCommands: Int, milliseconds: Int? = nil) {
            self.afterCommands = afterCommands
            self.milliseconds = milliseconds
        }

        /// How long the reader stays away; nil: for good.
        public var duration: Duration? { milliseconds.map { .milliseconds($0) } }

        /// The URL items, in canonical order.
        var items: [String] {
            ["unplug-after=\(afterCommands)"] + (milliseconds.map { ["unplug-ms=\($0)"] } ?? [])
        }
    }
}
