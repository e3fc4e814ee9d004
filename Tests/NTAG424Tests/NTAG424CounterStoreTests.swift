import NTAG424
import TestSupport
import Testing

/// The in-memory counter store against the contract every store keeps (TestSupport's
/// `CounterStoreContract`), and the requests a store refuses to take.
@Suite struct NTAG424CounterStoreTests {
    @Test("Accepted above the last counter, refused at or below it, a repeated request accepted again")
    func decisions() async throws {
        let store = NTAG424InMemoryCounterStore()
        try await CounterStoreContract.checkDecisions(store, keySet: "master-A1B2C3", recognisesLateRepeats: false)
        #expect(await store.lastAccepted(keySet: "master-A1B2C3", uid: CounterStoreContract.uid(1)) == 0xFF_FFFF)
        #expect(await store.lastAccepted(keySet: "master-A1B2C3", uid: CounterStoreContract.uid(3)) == nil)
        #expect(await store.tagCount == 3)
        #expect(await store.acceptCount == 6, "repeats are not counted again")
    }

    @Test("16 tasks send the same 20 tags x 25 counters in 5 orders: each counter accepted once at most")
    func concurrentTasks() async throws {
        let store = NTAG424InMemoryCounterStore()
        let stores = [any NTAG424CounterStore](repeating: store, count: 16)
        let decided = try await CounterStoreContract.concurrentRequests(stores, keySet: "k", tags: 20, counters: 25)
        #expect(decided.filter(\.decision.isAccepted).count == (await store.acceptCount))
        for tag in 0..<20 {
            #expect(await store.lastAccepted(keySet: "k", uid: CounterStoreContract.uid(tag)) == 25)
        }
    }

    @Test("64 tasks race for one tag's counter 7 with tokens of their own: exactly one wins")
    func race() async throws {
        let store = NTAG424InMemoryCounterStore()
        let decisions = try await withThrowingTaskGroup(of: NTAG424CounterDecision.self) { group in
            for task in 0..<64 {
                group.addTask {
                    await store.accept(try CounterStoreContract.request("k", tag: 0, counter: 7, token: "t\(task)"))
                }
            }
            var all: [NTAG424CounterDecision] = []
            for try await decision in group { all.append(decision) }
            return all
        }
        #expect(decisions.filter(\.isAccepted).count == 1)
        #expect(decisions.filter { $0 == .replayed(lastAccepted: 7) }.count == 63)
    }

    @Test("NTAG424.md: a verification server's check: fresh once, the same request again, a replay, a forgery")
    func documentationExample() async throws {
        // Example begin
        /// Whether `url`, a tap a phone sent, is genuine and fresh: its SDMMAC verifies with the keys of
        /// `master`, and `store` accepts its counter. `token` names the request: the same token when the
        /// same request is sent again.
        func isFreshTap(
            _ url: String, master: NTAG424MasterKey, store: any NTAG424CounterStore, token: String
        ) async throws -> Bool {
            let result = master.verify(try NTAG424SUNURL(url))
            // A URL that does not verify never reaches the store: a forgery must not raise a counter.
            guard result.isValid, let uid = result.uid, let counter = result.counter else { return false }
            let request = try NTAG424CounterRequest(keySet: "hall-a", uid: uid, counter: counter, token: token)
            return try await store.accept(request).isAccepted
        }
        // Example end
        let tags = try SUNTestTags(count: 2)
        let store = NTAG424InMemoryCounterStore()
        let tap = try tags.read(tag: 0, counter: 5).url
        let forged = String(tap.dropLast()) + (tap.hasSuffix("0") ? "1" : "0")
        #expect(!(try await isFreshTap(forged, master: tags.master, store: store, token: "r0")))
        #expect(await store.tagCount == 0, "the forgery never reached the store")
        #expect(try await isFreshTap(tap, master: tags.master, store: store, token: "r1"))
        #expect(try await isFreshTap(tap, master: tags.master, store: store, token: "r1"), "the same request again")
        #expect(!(try await isFreshTap(tap, master: tags.master, store: store, token: "r2")), "a replay")
        #expect(try await isFreshTap(tags.read(tag: 0, counter: 6).url, master: tags.master, store: store, token: "r3"))
        #expect(try await isFreshTap(tags.read(tag: 1, counter: 1).url, master: tags.master, store: store, token: "r4"))
    }

    @Test("Requests a store refuses: key set or token empty, too long or with control characters, UID, counter")
    func invalidRequests() {
        let uid = CounterStoreContract.uid(0)
        for (keySet, uid, counter, token) in [
            ("", uid, 1, "t"), (String(repeating: "k", count: 201), uid, 1, "t"), ("k\n", uid, 1, "t"),
            ("k", uid, 1, ""), ("k", uid, 1, "t\u{7F}"), ("k", Array(uid.prefix(4)), 1, "t"), ("k", uid, -1, "t"),
            ("k", uid, 0x100_0000, "t"),
        ] {
            #expect(throws: NTAG424Error(.invalidInput, "")) {
                try NTAG424CounterRequest(keySet: keySet, uid: uid, counter: counter, token: token)
            }
        }
        #expect(
            (try? NTAG424CounterRequest(keySet: String(repeating: "k", count: 200), uid: uid, counter: 0, token: "t"))
                != nil)
    }

    @Test("A decision describes itself; the store's error code is stable")
    func descriptions() {
        #expect(NTAG424CounterDecision.accepted(3).description == "accepted")
        #expect(NTAG424CounterDecision.replayed(lastAccepted: 61).description == "replayed (last accepted 61)")
        #expect(NTAG424Error.Code.counterStoreUnavailable.rawValue == "counter-store-unavailable")
        #expect(NTAG424Error.Code(rawValue: "counterStoreUnavailable") == .counterStoreUnavailable)
    }

    @Test("The SDMFileRead key's check value is AES-128 of a zero block, first 3 bytes (zero key: 66E94B)")
    func fileReadKeyCheckValue() throws {
        let verifier = try NTAG424SUNVerifier(metaReadKey: nil, fileReadKey: [UInt8](repeating: 0, count: 16))
        #expect(Array(try verifier.fileReadKeyCheckValue()) == [0x66, 0xE9, 0x4B])
    }
}
