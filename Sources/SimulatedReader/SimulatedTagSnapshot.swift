import TagMemory
import TagSimulator

/// What the file of a ``SimulatedReader`` keeps of its simulated tag: equal snapshots would
/// write the same file, so comparing them tells whether the tag needs saving.
enum SimulatedTagSnapshot: Sendable, Equatable {
    /// A Type 2 tag's whole state as a dump.
    case type2(TagDump)
    /// A Type 4 tag, of which its configuration, CC file and NDEF file are kept (its state
    /// text is made only when the file is written).
    case type4(SimulatedType4Tag)

    /// The snapshot of `tag` as it is now.
    init(_ tag: SimulatedTag) {
        switch tag {
        case .type2(let tag): self = .type2(tag.dump)
        case .type4(let tag): self = .type4(tag)
        }
    }

    static func == (lhs: SimulatedTagSnapshot, rhs: SimulatedTagSnapshot) -> Bool {
        switch (lhs, rhs) {
        case (.type2(let left), .type2(let right)):
            left == right
        case (.type4(let left), .type4(let right)):
            left.configuration == right.configuration && left.capabilityContainerFile == right.capabilityContainerFile
                && left.ndefFile == right.ndefFile
        default:
            false
        }
    }
}
