import SystemSupport

/// The last real reader (PC/SC or libnfc) a tag command used successfully, kept in
/// `$XDG_CONFIG_HOME/ndeftool/last-reader` (default `~/.config/ndeftool/last-reader`, XDG Base
/// Directory Specification 0.8) as one reader URL on one line, such as
/// `pcsc:ACS%20ACR122U%20PICC%20Interface%2000%2000`.
///
/// PC/SC readers (by their full name) and libnfc devices (by their connection string) are
/// remembered, not simulated readers: a simulated reader is always there, and remembering one
/// would make it the silent default. Reading the file, any reader URL is accepted. The file is written crash-safe: a temporary file next to
/// it, flushed, then renamed over it, so a reader of the file sees the old URL or the new one.
struct RememberedReader: Sendable {
    /// The file's name inside the configuration folder.
    static let fileName = "last-reader"

    /// The folder, `$XDG_CONFIG_HOME/ndeftool` or `$HOME/.config/ndeftool`; nil when neither
    /// variable is set (nothing is remembered then).
    let directory: String?

    /// The location `io`'s environment gives.
    init(io: any CommandIO) {
        if let config = io.environment("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            directory = config + "/ndeftool"
        } else if let home = io.environment("HOME"), !home.isEmpty {
            directory = home + "/.config/ndeftool"
        } else {
            directory = nil
        }
    }

    /// The file's path, if there is a folder for it.
    var path: String? { directory.map { $0 + "/" + Self.fileName } }

    /// The remembered URL; nil when there is none (a missing, unreadable or empty file).
    func load() -> String? {
        guard let path, let bytes = try? FileAccess.readFile(path: path, limit: 4096) else {
            return nil
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let trimmed = String(line.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Remembers `url`, creating the folder when needed (``FileAccess/replaceFile(_:path:in:mode:)``,
    /// off the cooperative pool).
    ///
    /// - Returns: nil, or why the file could not be written (the command still succeeded).
    @discardableResult
    func save(_ url: String) async -> String? {
        guard let directory, let path else { return "neither XDG_CONFIG_HOME nor HOME is set" }
        let bytes = Array((url + "\n").utf8)
        return await BlockingCall.run { FileAccess.replaceFile(bytes, path: path, in: directory, mode: 0o644) }
    }
}
