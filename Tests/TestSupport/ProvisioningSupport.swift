import Provisioning
import SimulatedReader
import Synchronization

/// A station on a simulated reader that stops when its supply is used up.
public func station(_ reader: SimulatedReader, _ name: String) -> ProvisioningStation {
    ProvisioningStation(name: name, reader: reader) { !reader.supplyHasMore }
}

/// A job's events, collected from its stations' tasks.
public final class EventLog: Sendable {
    private let storage = Mutex<[ProvisioningJobEvent]>([])

    /// An empty log.
    public init() {}

    /// Adds `event`.
    public func append(_ event: ProvisioningJobEvent) { storage.withLock { $0.append(event) } }

    /// The events so far, in order.
    public var events: [ProvisioningJobEvent] { storage.withLock { $0 } }

    /// The rows done so far.
    public var doneCount: Int { storage.withLock { $0.count { if case .rowDone = $0 { true } else { false } } } }
}
