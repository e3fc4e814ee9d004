import Synchronization

/// Elements handed out one at a time to whoever asks, from any task: the events of a fake
/// stream that a test lets through in order, each only when the consumer asks for it.
public final class TestQueue<Element: Sendable>: Sendable {
    private let elements: Mutex<[Element]>

    /// A queue of `elements`, first to last.
    public init(_ elements: [Element]) { self.elements = Mutex(elements) }

    /// The next element, or nil when all were handed out.
    public func next() -> Element? { elements.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
}
