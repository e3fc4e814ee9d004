import LibNFCReader
import NFCSession
import PCSCReader

/// `ndeftool readers --watch`: the readers and their tags as they come and go, one line per
/// change, until Ctrl-C (or SIGTERM), which ends with status 0.
///
/// PC/SC readers are watched through pcscd (``PCSCDirectory/watchReaders`` and
/// ``PCSCDirectory/watchCard``); libnfc has no notice of devices or tags arriving, so its devices
/// are listed once at the start with their tag unknown.
enum ReadersWatch {
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

    /// Watches until `stop` returns (by default the first SIGINT or SIGTERM:
    /// ``CommandIO/interruption()``) or pcscd's watch ends.
    static func run(
        _ invocation: CommandInvocation, json: Bool,
        stop: (@Sendable () async -> Void)? = nil
    ) async throws(CommandLineError) -> ExitStatus {
        let io = invocation.io
        let until = stop ?? io.interruption()
        if io.isTerminal(.error) && !json { io.writeError("Watching readers (Ctrl-C to stop)...\n") }
        var connstrings: [String] = []
        do {
            connstrings = try await io.libnfc.connstrings()
        } catch {
            io.writeError(Style(io: io).warning("libnfc devices cannot be listed: \(error.reason)") + "\n")
        }
        for connstring in connstrings {
            let url = LibNFCReaderURL(selector: .connstring(connstring)).description
            try emit(Change(event: "reader-added", kind: "libnfc", name: connstring, url: url), io: io, json: json)
        }
        do {
            for try await change in changes(pcsc: io.pcsc, until: until) {
                try emit(change, io: io, json: json)
            }
        } catch let error as CommandLineError {
            throw error
        } catch {
            let reason = (error as? NFCReaderError)?.reason ?? "\(error)"
            throw CommandLineError(.unavailable, "PC/SC readers cannot be watched: \(reason)")
        }
        return .success
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

    /// The changes of pcscd's readers and of the tags on them, until `until` returns.
    static func changes(
        pcsc: PCSCDirectory, until: @escaping @Sendable () async -> Void
    ) -> AsyncThrowingStream<Change, any Error> {
        AsyncThrowingStream { continuation in
            let watcher = Task {
                await withTaskGroup(of: Void.self) { group in
                    do {
                        for try await event in pcsc.watchReaders() {
                            switch event {
                            case .added(let name):
                                continuation.yield(change("reader-added", name))
                                group.addTask { await watchCard(name, pcsc: pcsc, continuation: continuation) }
                            case .removed(let name):
                                continuation.yield(change("reader-removed", name))
                            }
                        }
                        group.cancelAll()
                        await group.waitForAll()
                        continuation.finish()
                    } catch {
                        group.cancelAll()
                        continuation.finish(throwing: Task.isCancelled ? nil : error)
                    }
                }
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
                    continuation.yield(change(present ? "tag-present" : "tag-absent", name))
                    last = present
                }
            }
        } catch {
            return
        }
    }

    private static func change(_ event: String, _ name: String) -> Change {
        Change(event: event, kind: "pcsc", name: name, url: PCSCReaderURL(selector: .name(name)).description)
    }
}
