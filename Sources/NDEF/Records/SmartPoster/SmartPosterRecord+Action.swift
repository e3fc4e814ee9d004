extension SmartPosterRecord {
    /// The recommended action of a smart poster (Smart Poster RTD 1.0, section 3.3.3).
    ///
    /// Values 3-255 are reserved; they are kept as their raw code.
    public struct Action: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The action record's one byte.
        public var rawValue: UInt8

        /// Creates an action from its code.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// 0: do the action (open the URI, dial the number, send the message...).
        public static let execute = Action(rawValue: 0)
        /// 1: save for later.
        public static let save = Action(rawValue: 1)
        /// 2: open for editing.
        public static let open = Action(rawValue: 2)

        /// `"execute"`, `"save"` or `"open"`, or `nil` for a reserved code.
        public var name: String? {
            switch rawValue {
            case 0: "execute"
            case 1: "save"
            case 2: "open"
            default: nil
            }
        }

        /// The action with this name (`"execute"`, `"save"` or `"open"`).
        public init?(name: String) {
            switch name {
            case "execute": self = .execute
            case "save": self = .save
            case "open": self = .open
            default: return nil
            }
        }

        /// A one-line summary for people.
        public var description: String {
            name ?? "code \(rawValue)"
        }
    }
}
