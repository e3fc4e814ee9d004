import Foundation

/// Where the package's folders and built programs are, found from this file's path and the
/// test bundle's.
public enum PackagePaths {
    /// The package's top folder.
    public static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The package's `Fixtures` folder.
    public static let fixtures: URL = root.appendingPathComponent("Fixtures")

    /// The path of `name` under `Fixtures/`.
    public static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// The built executable `name`: next to the test bundle in the build's products folder (where
    /// `swift build` and `swift test` put it), else in `.build/debug` of the package; nil when
    /// it was not built.
    public static func builtExecutable(_ name: String) -> URL? {
        var folders: [URL] = []
        folders.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        folders.append(root.appendingPathComponent(".build/debug"))
        for folder in folders {
            // The products folder itself, or the one holding an .xctest bundle.
            for candidate in [folder, folder.deletingLastPathComponent().deletingLastPathComponent()] {
                let url = candidate.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    FileManager.default.isExecutableFile(atPath: url.path)
                {
                    return url
                }
            }
        }
        return nil
    }
}
