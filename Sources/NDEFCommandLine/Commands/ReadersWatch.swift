import LibNFCReader
import NFCSession
import PCSCReader

/// `ndeftool readers --watch`: the readers and their tags as they come and go, one line per
/// change, until Ctrl-C (or SIGTERM), which ends with status 0.
///
/// PC/SC readers are watched through pcscd (``PCSCDirectory/watchReaders`` and
/// ``PCSCDirectory/watchCard``). When pcscd is not running, or stops, the watch says so once and
/// keeps going: pcscd is asked again every ``retryInterval`` and its readers show when it is
/// back. libnfc announces nothing, so its list of devices (connection strings only, no device
/// opened to look for a tag) is taken again every ``rescanInterval``; a device missing from the
/// list whose device file still exists is held by another program, not removed
/// (``LibNFCDeviceNode``).
enum ReadersWatch {
    /// How often libnfc's devices are listed again.
    static let rescanInterval = Duration.seconds(2)
    /// How often pcscd is asked again while it is not running.
    static let retryInterval = Duration.seconds(2)

    /// One change, as a line of text or a JSON object.
    struct Change: Encodable, Sendable, Hashable {
        /// `reader-added`, `reader-removed`, `tag-present`, `tag-absent`.
        var event: String
        /// The backend: `pcsc` or `libnfc`.
        var kind: String
        /// The reader's name (a libnfc connection string).
        var name: String
        /// The URL that names the reader for `--reader`.
        var url: String
    }

    /// What the watch reports: a change on standard output, a note or a warning on standard
    /// error. Everything goes through one stream, written by one task.
    enum Report: Sendable {
        case change(Change)
        case note(String)
        case warning(String)
    }

    /// Watches until `stop` returns (by default the first SIGINT or SIGTERM:
    /// ``CommandIO/interruption()``) or pcscd's watch ends by itself.
    static func run(
        _ invocation: CommandInvocation, json: Bool,
        stop: (@Sendable () async -> Void)? = nil,
        rescan: Duration = rescanInterval, retry: Duration = retryInterval
    ) async throws(CommandLineError) -> ExitStatus {
        let io = invocation.io
        let messages = CommandMessages(invocation)
        let interruption = io.interruption()
        let until: @Sendable () async -> Void = stop ?? { _ = await interruption() }
        if io.isTerminal(.error) && !json { messages.note("Watching readers (Ctrl-C to stop)...") }
        // libnfc's devices first, as `readers` lists them after pcscd's but before any wait.
        var connstrings: [String]?
        do {
            connstrings = try await io.libnfc.connstrings()
        } catch {
            messages.warn("libnfc devices cannot be listed: \(error.reason)")
        }
        for connstring in connstrings ?? [] {
            try emit(libnfcChange("reader-added", connstring), io: io, json: json)
        }
        let pcsc = io.pcsc
        let libnfc = io.libnfc
        let listed = connstrings
        let reports = AsyncStream<Report> { continuation in
            let watcher = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await watchPCSC(pcsc, retry: retry, send: { continuation.yield($0) }) }
                    group.addTask {
                        await watchLibNFC(libnfc, known: listed, every: rescan, send: { continuation.yield($0) })
                    }
                    // pcscd's watch ending by itself ends the command; libnfc's never ends alone.
                    await group.next()
                    group.cancelAll()
                }
                continuation.finish()
            }
            let stopper = Task {
                await until()
                watcher.cancel()
                continuation.finish()
            }
            continuation.onTermination = { _ in
                watcher.cancel()
                stopper.cancel()
            }
        }
        for await report in reports {
            switch report {
            case .change(let change): try emit(change, io: io, json: json)
            case .note(let text): messages.note(text)
            case .warning(let text): messages.warn(text)
            }
        }
        return .success
    }

    /// pcscd's readers and tags until its watch ends by itself; while pcscd is not running, asks
    /// again every `retry`, saying so once, and reports its readers gone when it stops.
    static func watchPCSC(_ pcsc: PCSCDirectory, retry: Duration, send: @Sendable (Report) -> Void) async {
        var isDown = false
        var readers: [String] = []
        while !Task.isCancelled {
            do {
                for try await change in changes(pcsc: pcsc) {
                    if isDown {
                        send(.note("pcscd is running: watching its readers."))
                        isDown = false
                    }
                    if change.event == "reader-added" { readers.append(change.name) }
                    if change.event == "reader-removed" { readers.removeAll { $0 == change.name } }
                    send(.change(change))
                }
                return
            } catch {
                guard !Task.isCancelled else { return }
                for name in readers { send(.change(pcscChange("reader-removed", name))) }
                readers = []
                if !isDown {
                    let reason = (error as? NFCReaderError)?.reason ?? "\(error)"
                    send(.warning("PC/SC readers cannot be watched: \(reason)"))
                    send(
                        .note(
                            "Watching on: PC/SC readers show once pcscd runs (asked every \(seconds(retry))); "
                                + "libnfc devices are listed every \(seconds(rescanInterval))."))
                    isDown = true
                }
                try? await Task.sleep(for: retry)
            }
        }
    }

    /// libnfc's devices, listed every `interval` (`known`: the list at the start, nil when
    /// libnfc could not be asked then), until cancelled.
    static func watchLibNFC(
        _ libnfc: LibNFCDirectory, known: [String]?, every interval: Duration, send: @Sendable (Report) -> Void
    ) async {
        var devices = known ?? []
        var failed = known == nil
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            let listed: [String]
            do {
                listed = try await libnfc.connstrings()
            } catch {
                if !failed { send(.warning("libnfc devices cannot be listed: \(error.reason)")) }
                failed = true
                continue
            }
            failed = false
            guard !Task.isCancelled else { return }
            for device in devices where !listed.contains(device) && !libnfc.isAttached(device) {
                send(.change(libnfcChange("reader-removed", device)))
                devices.removeAll { $0 == device }
            }
            for device in listed where !devices.contains(device) {
                send(.change(libnfcChange("reader-added", device)))
                devices.append(device)
            }
        }
    }

    /// `2 s`, `0.5 s`.
    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }

    /// Prints one change.
    static func emit(_ change: Change, io: any CommandIO, json: Bool) throws(CommandLineError) {
        if json {
            try io.writeOutput(try MessageJSON.text(of: change, pretty: false) + "\n")
        } else {
            try io.writeOutput(line(change, style: Style(io: io, stream: .output)) + "\n")
        }
    }

    /// `reader added    pcsc    Reader 0  (pcsc:Reader%200)`, `tag present     pcsc    Reader 0`.
    static func line(_ change: Change, style: Style = Style(enabled: false)) -> String {
        let what = change.event == "tag-absent" ? "no tag" : String(change.event.map { $0 == "-" ? " " : $0 })
        let padded = what + String(repeating: " ", count: max(1, 16 - what.count))
        let shown = change.event == "tag-present" ? style.success(padded) : padded
        let kind = change.kind + String(repeating: " ", count: max(1, 8 - change.kind.count))
        let suffix = change.event == "reader-added" ? "  (\(change.url))" : ""
        return shown + kind + change.name + suffix
    }

    /// The changes of pcscd's readers and of the tags on them; the stream throws when pcscd is
    /// not running or stops, and ends with pcscd's watch or when its consumer stops.
    static func changes(pcsc: PCSCDirectory) -> AsyncThrowingStream<Change, any Error> {
        AsyncThrowingStream { continuation in
            let watcher = Task {
                await withTaskGroup(of: Void.self) { group in
                    do {
                        for try await event in pcsc.watchReaders() {
                            switch event {
                            case .added(let name):
                                continuation.yield(pcscChange("reader-added", name))
                                group.addTask { await watchCard(name, pcsc: pcsc, continuation: continuation) }
                            case .removed(let name):
                                continuation.yield(pcscChange("reader-removed", name))
                            }
                        }
                        group.cancelAll()
                        await group.waitForAll()
                        continuation.finish()
                    } catch {
                        // The card watches say what they saw before the readers' end is told.
                        group.cancelAll()
                        await group.waitForAll()
                        continuation.finish(throwing: Task.isCancelled ? nil : error)
                    }
                }
            }
            continuation.onTermination = { _ in watcher.cancel() }
        }
    }

    /// The tag on one reader: its state now, then each change, until the reader goes.
    private static func watchCard(
        _ name: String, pcsc: PCSCDirectory, continuation: AsyncThrowingStream<Change, any Error>.Continuation
    ) async {
        var last: Bool?
        do {
            for try await event in pcsc.watchCard(name) {
                let present: Bool
                switch event.presence {
                case .present, .mute: present = true
                case .empty: present = false
                case .readerRemoved: return
                }
                if present != last {
                    continuation.yield(pcscChange(present ? "tag-present" : "tag-absent", name))
                    last = present
                }
            }
        } catch {
            return
        }
    }

    private static func pcscChange(_ event: String, _ name: String) -> Change {
        Change(event: event, kind: "pcsc", name: name, url: PCSCReaderURL(selector: .name(name)).description)
    }

    private static func libnfcChange(_ event: String, _ connstring: String) -> Change {
        Change(
            event: event, kind: "libnfc", name: connstring,
            url: LibNFCReaderURL(selector: .connstring(connstring)).description)
    }
}
