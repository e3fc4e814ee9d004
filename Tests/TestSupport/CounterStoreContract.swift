import NTAG424
import Testing

/// What every ``NTAG424/NTAG424CounterStore`` must do, as checks any store's tests run: the
/// in-memory store's and PostgreSQL's alike. No verdict depends on timing: concurrent requests
/// are counted and compared, never timed.
public enum CounterStoreContract {
    /// One request's decision, as a worker of ``concurrentRequests(_:keySet:tags:counters:)`` saw it.
    public struct Decided: Sendable {
        public var worker: Int
        public var tag: Int
        public var counter: Int
        public var token: String
        public var decision: NTAG424CounterDecision
    }

    /// UID `tag` of the contract's tags.
    public static func uid(_ tag: Int) -> [UInt8] {
        [0x04, 0xC0, 0x01, 0x00, 0x00, UInt8(truncatingIfNeeded: tag >> 8), UInt8(truncatingIfNeeded: tag)]
    }

    /// A request for `tag`'s `counter` under `keySet` with `token`.
    public static func request(
        _ keySet: String, tag: Int, counter: Int, token: String
    ) throws -> NTAG424CounterRequest {
        try NTAG424CounterRequest(keySet: keySet, uid: uid(tag), counter: counter, token: token)
    }

    /// Accepting, refusing and repeating, for one tag, then tags and key sets kept apart.
    /// `recognisesLateRepeats`: whether the store answers a repeat "accepted" after a later
    /// counter of its tag was accepted (a store with an accept log), or as a replay.
    public static func checkDecisions(
        _ store: any NTAG424CounterStore, keySet: String, recognisesLateRepeats: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        func decide(_ tag: Int, _ counter: Int, _ token: String, keySet: String = keySet) async throws
            -> NTAG424CounterDecision
        {
            try await store.accept(try request(keySet, tag: tag, counter: counter, token: token))
        }
        let steps: [(tag: Int, counter: Int, token: String, expected: NTAG424CounterDecision, why: String)] = [
            (1, 5, "a", .accepted(5), "a tag's first counter"),
            (1, 5, "b", .replayed(lastAccepted: 5), "the same counter, another request"),
            (1, 5, "a", .accepted(5), "the same request again (its answer was lost)"),
            (1, 4, "c", .replayed(lastAccepted: 5), "a lower counter"),
            (1, 0, "c", .replayed(lastAccepted: 5), "counter 0"),
            (1, 9, "d", .accepted(9), "a counter that skips some (reads that never came)"),
            (1, 4, "c", .replayed(lastAccepted: 9), "a refused request again"),
            (1, 9, "d", .accepted(9), "the last accepted request again"),
            (2, 1, "e", .accepted(1), "another tag, its own counter"),
            (1, 10, "e", .accepted(10), "the first tag again, one above"),
            (1, 0xFF_FFFF, "f", .accepted(0xFF_FFFF), "the highest counter"),
            (1, 0xFF_FFFF, "g", .replayed(lastAccepted: 0xFF_FFFF), "the highest counter, another request"),
        ]
        for step in steps {
            let decision = try await decide(step.tag, step.counter, step.token)
            #expect(decision == step.expected, "\(step.why): \(decision)", sourceLocation: sourceLocation)
        }
        let late = try await decide(1, 5, "a")
        let expected: NTAG424CounterDecision = recognisesLateRepeats ? .accepted(5) : .replayed(lastAccepted: 0xFF_FFFF)
        #expect(late == expected, "a repeat after later counters: \(late)", sourceLocation: sourceLocation)
        let otherSet = try await decide(1, 1, "h", keySet: keySet + "-other")
        #expect(otherSet == .accepted(1), "another key set counts apart", sourceLocation: sourceLocation)
    }

    /// The order worker `worker` sends every tag's counters in: tag by tag rising, the same
    /// falling, counter by counter rising, the same falling, then shuffled (seeded).
    public static func order(worker: Int, tags: Int, counters: Int) -> [(tag: Int, counter: Int)] {
        let byTag = (0..<tags).flatMap { tag in (1...counters).map { (tag: tag, counter: $0) } }
        let byCounter = (1...counters).flatMap { counter in (0..<tags).map { (tag: $0, counter: counter) } }
        switch worker % 5 {
        case 0: return byTag
        case 1: return byTag.reversed()
        case 2: return byCounter
        case 3: return byCounter.reversed()
        default:
            var random = SeededRandom(seed: UInt64(worker) &* 0x9E37_79B9)
            return byTag.shuffled(using: &random)
        }
    }

    /// Sends every counter 1...`counters` of `tags` tags from one worker per store of `stores`
    /// at once (a store may be given several times), each worker in its own order
    /// (``order(worker:tags:counters:)``) and one request at a time; checks the decisions and
    /// returns them:
    ///
    /// - no tag's counter is accepted twice, and every tag's highest counter exactly once;
    /// - an accepted request's last counter is its own; a refused one's is not below it;
    /// - the last counters one worker sees for one tag never go down.
    @discardableResult
    public static func concurrentRequests(
        _ stores: [any NTAG424CounterStore], keySet: String, tags: Int, counters: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [Decided] {
        let decided = try await withThrowingTaskGroup(of: [Decided].self) { group in
            for (worker, store) in stores.enumerated() {
                group.addTask {
                    var seen: [Decided] = []
                    for (index, step) in order(worker: worker, tags: tags, counters: counters).enumerated() {
                        let token = "w\(worker)-\(index)"
                        let decision = try await store.accept(
                            try request(keySet, tag: step.tag, counter: step.counter, token: token))
                        seen.append(
                            Decided(
                                worker: worker, tag: step.tag, counter: step.counter, token: token,
                                decision: decision))
                    }
                    return seen
                }
            }
            var all: [Decided] = []
            for try await seen in group { all += seen }
            return all
        }
        #expect(decided.count == stores.count * tags * counters, sourceLocation: sourceLocation)
        var accepted: [Int: [Int: Int]] = [:]
        for entry in decided {
            if entry.decision.isAccepted {
                accepted[entry.tag, default: [:]][entry.counter, default: 0] += 1
                #expect(entry.decision.lastAccepted == entry.counter, sourceLocation: sourceLocation)
            } else {
                #expect(entry.decision.lastAccepted >= entry.counter, sourceLocation: sourceLocation)
            }
        }
        for tag in 0..<tags {
            let times = accepted[tag] ?? [:]
            #expect(
                times.values.allSatisfy { $0 == 1 }, "tag \(tag): a counter accepted twice",
                sourceLocation: sourceLocation)
            #expect(
                times[counters] == 1, "tag \(tag): its highest counter accepted once", sourceLocation: sourceLocation)
        }
        for worker in stores.indices {
            var last: [Int: Int] = [:]
            for entry in decided where entry.worker == worker {
                #expect(
                    entry.decision.lastAccepted >= last[entry.tag, default: -1],
                    "worker \(worker), tag \(entry.tag): the last counter went down", sourceLocation: sourceLocation)
                last[entry.tag] = entry.decision.lastAccepted
            }
        }
        return decided
    }
}
