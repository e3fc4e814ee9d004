/// One kind of operator sequence the exploration runs: a model of what the operator knows, the
/// commands they run through the built `ndeftool`, and the invariants checked after each.
protocol OperatorSequence {
    /// A sequence in `runner`'s folder, its choices drawn from `seed`.
    init(runner: CommandRunner, seed: UInt64) throws

    /// Runs `steps` commands; returns the invariants checked, or throws the first that does not
    /// hold (``ExplorationFailure``, with the commands that led to it).
    mutating func explore(steps: Int) throws -> Int

    /// The commands run so far, each with its exit status (and what it left, where the kind
    /// says).
    var history: [String] { get }
}

/// The kinds of sequences, one per sequence seed in turn.
enum SequenceKind: String, CaseIterable {
    case password, sdm, batch, classic

    /// The kind of the sequence of `seed`: its replay is of the same kind.
    init(seed: UInt64) { self = Self.allCases[Int(seed % UInt64(Self.allCases.count))] }

    /// A sequence of this kind.
    func sequence(runner: CommandRunner, seed: UInt64) throws -> any OperatorSequence {
        switch self {
        case .password: try PasswordExploration(runner: runner, seed: seed)
        case .sdm: try SDMExploration(runner: runner, seed: seed)
        case .batch: try BatchExploration(runner: runner, seed: seed)
        case .classic: try ClassicExploration(runner: runner, seed: seed)
        }
    }
}
