import Synchronization

/// Whether the session that handed out a tag is still valid: tags check it before each operation.
final class SessionLifetime: Sendable {
    private let invalidated = Mutex(false)

    /// Whether ``invalidate()`` was called.
    var isInvalidated: Bool { invalidated.withLock { $0 } }

    /// Marks the session invalid for good.
    func invalidate() { invalidated.withLock { $0 = true } }
}
