import NDEF
import NFCSession
import TagSimulator

extension SimulatedReader {
    /// A reader whose field is fed by `supply`: the first tag goes in now, the others as the
    /// operator swaps them (see ``pollTargets()``); `directory` (ending in `/`), when given,
    /// receives each tag as it is taken away and the last one at ``close()``.
    public convenience init(
        name: String = "sim", supply: SimulatedTagSupply, swapTime: Duration = .zero, directory: String? = nil,
        capabilities: NFCReaderCapabilities = defaultCapabilities
    ) {
        var field = SimulatedField()
        var stack = supply
        stack.presentNext(into: &field)
        self.init(name: name, field: field, capabilities: capabilities, supplyDirectory: directory)
        withState { state in
            state.supply = stack
            state.swapTime = swapTime
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

    /// Whether the supply still has tags to present (false for a reader without a supply).
    public var supplyHasMore: Bool {
        withState { state in state.supply.map { $0.hasMore || $0.currentUID != nil } ?? false }
    }

    /// The operator's turn, at each poll: takes the tag away when the reader is done with it,
    /// and puts the next one in once the swap time has passed.
    ///
    /// - Returns: the tag taken away, if one was.
    static func operateSupply(_ state: inout State) -> SimulatedTag? {
        guard var supply = state.supply else { return nil }
        defer { state.supply = supply }
        let now = ContinuousClock.now
        let leaving = supply.takeAwayIfDone(from: &state.field)
        if leaving != nil { state.nextArrival = now.advanced(by: state.swapTime) }
        if supply.currentUID == nil, state.nextArrival.map({ now >= $0 }) ?? true {
            supply.presentNext(into: &state.field)
            state.nextArrival = nil
        }
        return leaving
    }

    /// Saves `tag` as DIRECTORY/UID.nfc (a Type 4 tag: UID.t4t), when the supply has a directory.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the file cannot be written.
    func saveSupplied(_ tag: SimulatedTag) async throws(NFCReaderError) {
        guard let directory = supplyDirectory else { return }
        let isType4 = tag.type4Tag != nil
        let name = NDEFHex.encode(tag.uid, uppercase: true, separator: "")
        let path = directory + name + "." + (isType4 ? SimulatedTagFile.type4Extension : "nfc")
        let store = SimulatedTagStore(file: SimulatedTagFile(path: path, holdsType4Tag: isType4))
        try await store.save(SimulatedTagSnapshot(tag), generation: 1)
    }
}

extension SimulatedReader: NFCReaderSignalling {
    /// A simulated reader records the signals (``signals``).
    public var supportsSignals: Bool { true }

    /// Records `signal` in ``signals``; false once the reader is closed.
    @discardableResult
    public func signal(_ signal: NFCReaderSignal) async -> Bool {
        withState { state in
            guard !state.isClosed else { return false }
            state.signals.append(signal)
            return true
        }
    }

    /// The signals shown so far, in order.
    public var signals: [NFCReaderSignal] { withState { $0.signals } }
}
