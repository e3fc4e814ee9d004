/// Where a verifier keeps the last read counter it accepted for each tag, so that a URL is
/// accepted once at most: the replay protection of secure unique NFC messages.
///
/// An NTAG 424 DNA with SDM raises SDMReadCtr by one on every read of its NDEF file and mirrors
/// the new value into the URL, under the SDMMAC (NT4H2421Gx datasheet 9.3.3). The counter is 3
/// bytes, only ever goes up (no command lowers or resets it, not a key change, not a factory
/// reset of the file) and stops at its limit. So a URL whose SDMMAC verifies is fresh exactly
/// when its counter is above every counter accepted for that tag before: a copied URL, or any
/// older one, repeats or undercuts it. Counters may skip (reads whose URL never reached the
/// server), so a store asks for "above", never for "one more".
///
/// A store keeps one counter per key set and UID (``NTAG424CounterRequest/keySet``: tags of
/// different keys are counted apart, even with one UID) and decides each request atomically:
///
/// - a counter above the last one accepted is accepted and becomes the last one;
/// - any other counter is refused, with the last one accepted (the one that refused it);
/// - a request repeated with its ``NTAG424CounterRequest/token`` after it was accepted (a
///   connection lost after the store recorded it, before the answer arrived) is accepted again,
///   not taken for a replay, while its counter is still the tag's last one. Once a later
///   counter of the same tag has been accepted, a store may answer the repeat as a replay (the
///   tag has moved on; a store that keeps an accept log answers it as accepted).
///
/// Two requests for one tag never both see a counter as "above": whatever the number of
/// verifiers sharing the store, each counter of a tag is accepted once at most, and a tag's
/// accepted counters rise in the order the store decided them.
///
/// Only URLs whose SDMMAC verified are for the store: a forged URL must not raise a tag's
/// counter (it would make the tag's genuine next URLs look like replays).
/// ``NTAG424InMemoryCounterStore`` keeps the counters in one process; `ProvisioningDatabase`'s
/// `DatabaseCounterStore` in PostgreSQL, shared by any number of processes and machines.
public protocol NTAG424CounterStore: Sendable {
    /// Accepts `request`'s counter if it is above the last one accepted for its key set and
    /// UID, and records it; otherwise refuses it with that last counter. Atomic: concurrent
    /// requests for one tag are decided one after the other.
    ///
    /// - Throws: ``NTAG424Error/Code/counterStoreUnavailable`` when the store cannot decide (it
    ///   could not be reached, or failed): the URL must not be accepted, and the request may
    ///   be sent again with its token.
    func accept(_ request: NTAG424CounterRequest) async throws(NTAG424Error) -> NTAG424CounterDecision
}

/// One verified URL's claim on a counter: the key set, the tag's UID, SDMReadCtr, and the token
/// that makes a repeat of the request recognisable.
public struct NTAG424CounterRequest: Sendable, Hashable {
    /// The longest key set name or token, in UTF-8 bytes.
    public static let longestName = 200

    /// Which keys' tags the counter belongs to: a name for the keys the URL verified with (a
    /// verifier derives it from a check value of its SDMFileRead or master key, never from a
    /// key itself).
    public let keySet: String
    /// The tag's UID (7 bytes).
    public let uid: [UInt8]
    /// SDMReadCtr, 0 to FFFFFFh.
    public let counter: Int
    /// What tells this request from every other one: a request sent again with the same token
    /// is the same request (a retry), one with another token a new one, even for the same URL.
    public let token: String

    /// A request.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for a key set or token that is empty,
    ///   longer than ``longestName`` bytes or holds a control character, a UID that is not 7
    ///   bytes, or a counter outside 0-FFFFFFh.
    public init(keySet: String, uid: [UInt8], counter: Int, token: String) throws(NTAG424Error) {
        for (name, text) in [("key set", keySet), ("token", token)] {
            guard !text.isEmpty, text.utf8.count <= Self.longestName,
                !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else {
                throw NTAG424Error(
                    .invalidInput,
                    "a counter store's \(name) is 1 to \(Self.longestName) bytes of text, no control character")
            }
        }
        guard uid.count == 7 else { throw NTAG424Error(.invalidInput, "an NTAG 424 DNA UID is 7 bytes") }
        guard (0...0xFF_FFFF).contains(counter) else {
            throw NTAG424Error(.invalidInput, "SDMReadCtr is 3 bytes: 0 to 16777215, not \(counter)")
        }
        self.keySet = keySet
        self.uid = uid
        self.counter = counter
        self.token = token
    }
}

/// A counter store's answer to a request: accepted, or refused with the last counter accepted.
public struct NTAG424CounterDecision: Sendable, Hashable, CustomStringConvertible {
    /// Whether the counter was accepted (now, or before with the same token).
    public let isAccepted: Bool
    /// The tag's last accepted counter after the decision: the request's own when accepted,
    /// the one that refused it (equal to it or above) when not.
    public let lastAccepted: Int

    /// The request's `counter` accepted.
    public static func accepted(_ counter: Int) -> NTAG424CounterDecision {
        NTAG424CounterDecision(isAccepted: true, lastAccepted: counter)
    }

    /// The request refused: `lastAccepted` was accepted before, and the request is not above it.
    public static func replayed(lastAccepted: Int) -> NTAG424CounterDecision {
        NTAG424CounterDecision(isAccepted: false, lastAccepted: lastAccepted)
    }

    private init(isAccepted: Bool, lastAccepted: Int) {
        self.isAccepted = isAccepted
        self.lastAccepted = lastAccepted
    }

    /// `accepted` or `replayed (last accepted 61)`.
    public var description: String { isAccepted ? "accepted" : "replayed (last accepted \(lastAccepted))" }
}
