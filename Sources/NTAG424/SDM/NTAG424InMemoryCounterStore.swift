/// A counter store in this process's memory: the replay protection of one verifier process
/// (or of tests), gone when the process ends.
///
/// An actor, so requests from any number of tasks are decided one at a time. It keeps one
/// entry per tag (key set and UID): the last counter accepted and the token that accepted it,
/// so a repeat of the request that set the last counter is accepted again
/// (``NTAG424CounterStore``); a repeat after a later counter of the tag is answered as a replay.
/// Verifiers in several processes share a store of their own outside them: `ProvisioningDatabase`'s
/// `DatabaseCounterStore`.
public actor NTAG424InMemoryCounterStore: NTAG424CounterStore {
    /// A tag, as the store tells tags apart.
    private struct Tag: Hashable {
        var keySet: String
        var uid: [UInt8]
    }

    private var last: [Tag: (counter: Int, token: String)] = [:]
    private var accepts = 0

    /// An empty store.
    public init() {}

    public func accept(_ request: NTAG424CounterRequest) -> NTAG424CounterDecision {
        let tag = Tag(keySet: request.keySet, uid: request.uid)
        if let stored = last[tag] {
            if stored.counter == request.counter && stored.token == request.token {
                return .accepted(request.counter)
            }
            guard stored.counter < request.counter else { return .replayed(lastAccepted: stored.counter) }
        }
        last[tag] = (request.counter, request.token)
        accepts += 1
        return .accepted(request.counter)
    }

    /// The last counter accepted for the tag `uid` of `keySet`; nil when none was.
    public func lastAccepted(keySet: String, uid: [UInt8]) -> Int? {
        last[Tag(keySet: keySet, uid: uid)]?.counter
    }

    /// How many tags the store has a counter for.
    public var tagCount: Int { last.count }

    /// How many counters it accepted (repeats of a request not counted again).
    public var acceptCount: Int { accepts }
}
