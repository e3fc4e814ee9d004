import NFCSession
import TagMemory
import TagSimulator

extension SimulatedReader {
    /// The reader's state, behind its lock.
    struct State: Sendable {
        var field: SimulatedField
        var isClosed = false
        /// The UID of the tag kept in a file: the single tag of `file=PATH`, or the tag of a
        /// supply with `file=DIR/` that is in the field.
        var persistedUID: [UInt8]?
        /// The file the tag of ``persistedUID`` is kept in.
        var store: SimulatedTagStore?
        /// The state last handed to the file (nil: unknown, save at the next chance).
        var savedSnapshot: SimulatedTagSnapshot?
        /// The number of the last save requested.
        var saveGeneration = 0
        /// The tags still to present, for a reader opened with `supply=N`.
        var supply: SimulatedTagSupply?
        /// The files the supply's tags were loaded from, by UID (they are written back in the
        /// format found).
        var supplyFiles: [[UInt8]: SimulatedTagFile] = [:]
        /// How long the operator takes between taking a tag away and putting the next in.
        var swapTime: Duration = .zero
        /// When the next tag of the supply goes in; nil: at the next poll.
        var nextArrival: ContinuousClock.Instant?
        /// The signals shown, in order (``SimulatedReader/signals``).
        var signals: [NFCReaderSignal] = []
        /// The reader being pulled out and plugged back (``SimulatedReader/unplug(afterCommands:for:)``).
        var unplugging = Unplugging()
        /// The signal the process sends itself after a number of commands (`signal-after`).
        var processSignalling = ProcessSignalling()
        /// For a reader opened with `file=PATH`: the URL, to load and check the tag again when
        /// the reader takes the file's lock after another reader held it.
        var fileSource: FileSource?
        /// The lock of the tag file while this reader holds the tag (``SimulatedTagLock``);
        /// nil while another reader holds it: polls then see no tag.
        var fileLock: SimulatedTagLock?

        /// The save the stored tag needs, when its state changed since the last save: the
        /// snapshot is then taken as saved.
        mutating func pendingSave() -> PendingSave? {
            guard let uid = persistedUID, let store, let tag = field.tag(uid: uid) else { return nil }
            let snapshot = SimulatedTagSnapshot(tag)
            guard snapshot != savedSnapshot else { return nil }
            return save(snapshot, to: store)
        }

        /// A save of `snapshot` to `store`, whether or not it changed.
        mutating func save(_ snapshot: SimulatedTagSnapshot, to store: SimulatedTagStore) -> PendingSave {
            savedSnapshot = snapshot
            saveGeneration += 1
            return PendingSave(store: store, snapshot: snapshot, generation: saveGeneration)
        }

        /// After a failed save: the file's state is unknown, so the next chance saves again.
        mutating func forgetSave(_ generation: Int) {
            if saveGeneration == generation { savedSnapshot = nil }
        }

        /// Keeps `tag` in `store` from now on; `store` holds it as it is (or holds nothing and
        /// the tag is a factory tag, which is the same on the next opening).
        mutating func keep(_ tag: SimulatedTag, in store: SimulatedTagStore) {
            persistedUID = tag.uid
            self.store = store
            savedSnapshot = SimulatedTagSnapshot(tag)
            saveGeneration += 1
        }

        /// Keeps no tag in a file.
        mutating func keepNothing() {
            persistedUID = nil
            store = nil
            savedSnapshot = nil
            saveGeneration += 1
        }
    }

    /// Where a `file=PATH` reader's tag comes from.
    struct FileSource: Sendable {
        var url: SimulatedReaderURL
        var readerName: String
        /// The READ_SIG answer the URL gives its tag.
        var signing: SimulatedTagSigning
    }

    /// A snapshot to write to a tag file, with the number of its state.
    struct PendingSave: Sendable {
        let store: SimulatedTagStore
        let snapshot: SimulatedTagSnapshot
        let generation: Int

        /// Writes the snapshot off the cooperative pool (``SimulatedTagStore/save(_:generation:)``).
        func write() async throws(NFCReaderError) {
            try await store.save(snapshot, generation: generation)
        }
    }
}

/// What the file of a ``SimulatedReader`` keeps of its simulated tag: equal snapshots would
/// write the same file, so comparing them tells whether the tag needs saving.
enum SimulatedTagSnapshot: Sendable, Equatable {
    /// A Type 2 tag's whole state as a dump.
    case type2(TagDump)
    /// A Type 4 tag, of which its configuration, CC file and NDEF file are kept (its state
    /// text is made only when the file is written).
    case type4(SimulatedType4Tag)
    /// A MIFARE Classic card's image as a dump.
    case classic(TagDump)

    /// The snapshot of `tag` as it is now.
    init(_ tag: SimulatedTag) {
        switch tag {
        case .type2(let tag): self = .type2(tag.dump)
        case .type4(let tag): self = .type4(tag)
        case .classic(let tag): self = .classic(tag.dump)
        }
    }

    static func == (lhs: SimulatedTagSnapshot, rhs: SimulatedTagSnapshot) -> Bool {
        switch (lhs, rhs) {
        case (.type2(let left), .type2(let right)), (.classic(let left), .classic(let right)):
            left == right
        case (.type4(let left), .type4(let right)):
            left.configuration == right.configuration && left.capabilityContainerFile == right.capabilityContainerFile
                && left.ndefFile == right.ndefFile && left.ntag424?.storedState == right.ntag424?.storedState
        default:
            false
        }
    }
}
