import HexText
import NDEF
import NFCSession
import TagSimulator

extension SimulatedReader {
    /// A reader whose field is fed by `supply`: the first tag goes in now, the others as the
    /// operator swaps them (see ``pollTargets()``). With `directory` (ending in `/`), the tag in
    /// the field is saved to `directory/UID.nfc` (`UID.t4t` for a Type 4 tag) after every command
    /// that changed it, before the command's answer is returned, and each tag again when it is
    /// taken away and at ``close()``: a process killed at any point leaves each file as the tag
    /// was after its last completed command. (The tags are not loaded from the directory here:
    /// ``init(url:)`` does that.)
    public convenience init(
        name: String = "sim", supply: SimulatedTagSupply, swapTime: Duration = .zero, directory: String? = nil,
        capabilities: NFCReaderCapabilities = defaultCapabilities
    ) {
        self.init(
            name: name, supply: supply, swapTime: swapTime, directory: directory, files: [:], capabilities: capabilities
        )
    }

    /// A reader fed by `supply`, whose tags loaded from a file are written back to `files`.
    convenience init(
        name: String, supply: SimulatedTagSupply, swapTime: Duration, directory: String?,
        files: [[UInt8]: SimulatedTagFile], capabilities: NFCReaderCapabilities
    ) {
        var field = SimulatedField()
        var stack = supply
        let first = stack.presentNext(into: &field)
        self.init(name: name, field: field, capabilities: capabilities, supplyDirectory: directory)
        withState { state in
            state.supply = stack
            state.swapTime = swapTime
            state.supplyFiles = files
            if let first, let directory { state.keep(first, in: Self.supplyStore(for: first, directory, state)) }
        }
    }

    /// Every tag of the supply that went into the field, once each, in the order they first went
    /// in, with their memory as it is now (empty for a reader without a supply).
    public var suppliedTags: [SimulatedTag] {
        withState { state in state.supply?.passedTags(in: state.field) ?? [] }
    }

    /// The UIDs of the supply's tags in the order they went into the field; a tag presented again
    /// (`duplicate=K`) appears twice.
    public var presentedUIDs: [[UInt8]] {
        withState { state in state.supply?.presentedUIDs ?? [] }
    }

    /// Whether the supply still has tags to present, counting the one in the field until the
    /// operator takes it away (at the first poll after the reader selected it): false once the
    /// last tag was taken away, when the field holds no tag of the supply (false for a reader
    /// without a supply).
    public var supplyHasMore: Bool {
        withState { state in state.supply.map { $0.hasMore || $0.currentUID != nil } ?? false }
    }

    /// The UID of the supply's tag in the field (or out of it by `remove-after`, until the operator
    /// takes it away); nil between two tags and after the last.
    public var suppliedTagInField: [UInt8]? {
        withState { state in state.supply?.currentUID }
    }

    /// The operator's turn, at each poll: takes the tag away when the reader is done with it,
    /// and puts the next one in once the swap time has passed. The tag in the field becomes the
    /// one kept in `directory`.
    ///
    /// - Returns: the save of the tag taken away, when one was and the supply has a directory.
    static func operateSupply(_ state: inout State, directory: String?) -> PendingSave? {
        guard var supply = state.supply else { return nil }
        // Taken out while it changes, so its tags are not copied (copy on write) at every poll.
        state.supply = nil
        let now = ContinuousClock.now
        var pending: PendingSave?
        if let leaving = supply.takeAwayIfDone(from: &state.field) {
            state.nextArrival = now.advanced(by: state.swapTime)
            if let directory {
                pending = state.save(SimulatedTagSnapshot(leaving), to: supplyStore(for: leaving, directory, state))
            }
            state.keepNothing()
        }
        if supply.currentUID == nil, state.nextArrival.map({ now >= $0 }) ?? true {
            if let entering = supply.presentNext(into: &state.field), let directory {
                state.keep(entering, in: supplyStore(for: entering, directory, state))
            }
            state.nextArrival = nil
        }
        state.supply = supply
        return pending
    }

    /// The save of the supply's tag in the field, whether or not it changed (at ``close()``);
    /// nil without one or without a directory.
    static func saveOfSuppliedTag(_ state: inout State, directory: String?) -> PendingSave? {
        guard let directory, let uid = state.supply?.currentUID, let tag = state.field.tag(uid: uid) else {
            return nil
        }
        return state.save(SimulatedTagSnapshot(tag), to: supplyStore(for: tag, directory, state))
    }

    /// The store of `tag` in `directory`: the one in use when it is the tag kept; else the file
    /// it was loaded from, or a new `directory/UID.nfc` (`UID.t4t`, `UID.mfd`). Its writes
    /// are not flushed to disk (``SimulatedTagFile/syncsToDisk``): they survive the process.
    static func supplyStore(for tag: SimulatedTag, _ directory: String, _ state: State) -> SimulatedTagStore {
        if state.persistedUID == tag.uid, let store = state.store { return store }
        let holding = SimulatedTagFile.Holding(tag)
        var file =
            state.supplyFiles[tag.uid]
            ?? SimulatedTagFile(
                path: supplyFilePath(uid: tag.uid, directory: directory, holding: holding), holding: holding)
        file.syncsToDisk = false
        return SimulatedTagStore(file: file)
    }

    /// `directory/UID.nfc`, `directory/UID.t4t` for a Type 4 tag, `directory/UID.mfd` for a
    /// MIFARE Classic card: the UID in upper-case hex.
    static func supplyFilePath(uid: [UInt8], directory: String, holding: SimulatedTagFile.Holding) -> String {
        directory + Hex.encode(uid, uppercase: true) + "." + holding.supplyExtension
    }
}

extension SimulatedReader: NFCReaderSignalling {
    /// A simulated reader records the signals (``signals``).
    public var supportsSignals: Bool { true }

    /// Records `signal` in ``signals``; false once the reader is closed, and while it is
    /// unplugged (nothing is recorded then).
    @discardableResult
    public func signal(_ signal: NFCReaderSignal) async -> Bool {
        withState { state in
            guard !state.isClosed, !state.unplugging.isAway else { return false }
            state.signals.append(signal)
            return true
        }
    }

    /// The signals shown so far, in order.
    public var signals: [NFCReaderSignal] { withState { $0.signals } }
}
