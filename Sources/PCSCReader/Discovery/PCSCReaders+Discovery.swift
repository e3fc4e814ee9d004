import NFCSession

/// Finding readers as a payment terminal does: waiting for the first one, and following the
/// list as readers are plugged in and out.
extension PCSCReaders {
    /// The readers pcscd has, waiting up to `timeout` for at least one to appear.
    ///
    /// Returns as soon as one or more readers are listed (all of those listed then), or an empty
    /// list when none came in time. Built on ``watchReaders()`` (pcsc-lite's
    /// `\\?PnP?\Notification`), so a reader plugged in during the wait is seen at once.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when pcscd is not running
    ///   (the message says how to start it); ``NFCSession/NFCReaderError/Code/cancelled`` when
    ///   the task is cancelled.
    public static func discover(timeout: Duration) async throws(NFCReaderError) -> [String] {
        let now = try await names()
        if !now.isEmpty || timeout <= .zero { return now }
        let result: Result<[String], NFCReaderError> = await withTaskGroup(
            of: Result<[String], NFCReaderError>?.self
        ) { group in
            group.addTask {
                do {
                    for try await list in readerList() where !list.isEmpty { return .success(list) }
                    return .success([])
                } catch let error as NFCReaderError {
                    return .failure(error)
                } catch {
                    return .failure(NFCReaderError(.readerUnavailable, "watching pcscd's readers failed: \(error)"))
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .success([])
        }
        if Task.isCancelled { throw NFCReaderError(.cancelled, "the wait for a reader was cancelled") }
        return try result.get()
    }

    /// The list of readers, live: the list now, then the whole list again after every arrival
    /// or removal (``watchReaders()`` folded into lists, in pcscd's order of arrival).
    ///
    /// The first element is the list when watching starts, possibly empty. The stream ends when
    /// the consumer stops iterating, and throws an ``NFCSession/NFCReaderError`` when pcscd is not
    /// running or stops.
    public static func readerList() -> AsyncThrowingStream<[String], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[String], any Error>.makeStream()
        let task = Task {
            var readers: [String] = []
            var isFirst = true
            do {
                let events = watchReaders()
                // The first events describe the readers there now: they are gathered into the first
                // list, which is sent once the watch has reported them all (or at once when empty).
                let initial = try await names()
                for name in initial where !readers.contains(name) { readers.append(name) }
                continuation.yield(readers)
                isFirst = false
                for try await event in events {
                    switch event {
                    case .added(let name):
                        guard !readers.contains(name) else { continue }
                        readers.append(name)
                    case .removed(let name):
                        guard readers.contains(name) else { continue }
                        readers.removeAll { $0 == name }
                    }
                    continuation.yield(readers)
                }
                continuation.finish()
            } catch {
                if isFirst, Task.isCancelled {
                    continuation.finish()
                } else {
                    continuation.finish(throwing: error)
                }
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
