import Foundation

/// A folder of its own for one test, under the system's temporary folder, removed with
/// everything in it when the object goes away (or at ``remove()``).
///
/// Keep the object alive for as long as the test uses the folder: `withExtendedLifetime`, or a
/// `let` that the test reads at its end.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The folder.
    public let url: URL

    /// A new, empty folder named `ndeftool-tests-<prefix>-<random>`.
    public init(_ prefix: String = "test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ndeftool-tests-\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// The folder's path.
    public var path: String { url.path }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `bytes` to the file `name` in the folder; returns its path.
    @discardableResult
    public func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes `text` (UTF-8) to the file `name` in the folder; returns its path.
    @discardableResult
    public func file(_ name: String, text: String) throws -> String { try file(name, Array(text.utf8)) }

    /// The bytes of the file `name` in the folder.
    public func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Creates the folder `name` in the folder; returns its path.
    @discardableResult
    public func directory(_ name: String) throws -> String {
        let path = path(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The names of the files in the folder, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Removes the folder and everything in it now.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
