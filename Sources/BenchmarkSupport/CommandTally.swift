import TagSimulator

/// The commands a simulated tag received during one operation: how many of each kind, and the
/// sequence in runs of the same kind.
public struct CommandTally: Sendable, Equatable {
    /// Commands of each kind, in a fixed order (Type 2 kinds, Type 4, MIFARE Classic), kinds not sent left out.
    public var byKind: [(kind: String, count: Int)]
    /// The sequence as runs of one kind: `[("GET_VERSION", 1), ("FAST_READ", 2), ("WRITE", 27), ...]`.
    public var runs: [(kind: String, count: Int)]

    /// The counts and the log of `field` (whose log must have been recording).
    public init(_ field: SimulatedField) {
        var kinds: [(String, Int)] = []
        for command in SimulatedType2Command.allCases {
            let count = field.count(of: command)
            if count > 0 { kinds.append((command.rawValue, count)) }
        }
        for command in SimulatedType4Command.allCases {
            let count = field.count(of: command)
            if count > 0 { kinds.append((command.rawValue, count)) }
        }
        let classic = field.classicCommandCounts
        for command in SimulatedClassicCommand.allCases {
            if let count = classic[command], count > 0 { kinds.append((command.rawValue, count)) }
        }
        byKind = kinds
        var runs: [(String, Int)] = []
        for entry in field.log {
            let name = entry.command.description
            if let last = runs.last, last.0 == name {
                runs[runs.count - 1].1 += 1
            } else {
                runs.append((name, 1))
            }
        }
        self.runs = runs
    }

    /// Every command received.
    public var total: Int { byKind.reduce(0) { $0 + $1.count } }

    /// `1 GET_VERSION, 3 FAST_READ, 27 WRITE`.
    public var kindsDescription: String {
        byKind.map { "\($0.count) \($0.kind)" }.joined(separator: ", ")
    }

    /// `1 GET_VERSION + 2 FAST_READ + 27 WRITE + 1 FAST_READ`.
    public var sequenceDescription: String {
        runs.map { "\($0.count) \($0.kind)" }.joined(separator: " + ")
    }

    public static func == (lhs: CommandTally, rhs: CommandTally) -> Bool {
        lhs.byKind.elementsEqual(rhs.byKind) { $0 == $1 } && lhs.runs.elementsEqual(rhs.runs) { $0 == $1 }
    }
}
