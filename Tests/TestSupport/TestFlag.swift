import Synchronization

/// A flag one task raises and others look at: an event a test waits for (with
/// ``eventually(within:every:_:)``) instead of a time it sleeps.
public final class TestFlag: Sendable {
    private let raised = Mutex(false)

    /// A flag not raised yet.
    public init() {}

    /// Whether it was raised.
    public var isRaised: Bool { raised.withLock { $0 } }

    /// Raises it; whether this call did (false when it was raised already).
    @discardableResult
    public func raise() -> Bool {
        raised.withLock { raised in
            defer { raised = true }
            return !raised
        }
    }
}
