import Foundation
import TestSupport
import Testing

/// `Scripts/install` with the built ndeftool into a temporary prefix: the binary, the manual page
/// and the three completion scripts land where each is looked for, and `--uninstall` removes them.
@Suite struct InstallScriptTests {
    static let script = PackagePaths.root.appendingPathComponent("Scripts/install")

    /// Runs `bash Scripts/install arguments`.
    static func install(_ arguments: [String]) async throws -> RunResult {
        try await BinaryRunner.run([script.path] + arguments, program: URL(fileURLWithPath: "/bin/bash"))
    }

    @Test("install, then uninstall, into a temporary prefix")
    func installAndUninstall() async throws {
        let binary = try #require(BinaryRunner.executable, "ndeftool was not built next to the tests")
        let folder = try TemporaryDirectory("install")
        defer { folder.remove() }
        let prefix = folder.path("prefix")
        let installed = try await Self.install(["--prefix", prefix, "--binary", binary.path])
        #expect(installed.status == 0, "\(installed.error)")
        let files = [
            "bin/ndeftool", "share/man/man1/ndeftool.1", "share/bash-completion/completions/ndeftool",
            "share/zsh/site-functions/_ndeftool", "share/fish/vendor_completions.d/ndeftool.fish",
        ]
        for file in files {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/ndeftool"))
        let page = try String(contentsOfFile: prefix + "/share/man/man1/ndeftool.1", encoding: .utf8)
        #expect(page.contains("\n.SH EXIT STATUS\n") && page.contains("\n.SH ENVIRONMENT\n"))
        let bash = try String(contentsOfFile: prefix + "/share/bash-completion/completions/ndeftool", encoding: .utf8)
        #expect(bash == (await runInProcess(["completions", "bash"])).outputText)

        let removed = try await Self.install(["--prefix", prefix, "--uninstall"])
        #expect(removed.status == 0)
        for file in files {
            #expect(!FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file)")
        }
    }

    @Test("a relative prefix or an unknown argument is a usage error (64); --dry-run changes nothing")
    func arguments() async throws {
        let relative = try await Self.install(["--prefix", "local", "--dry-run"])
        #expect(relative.status == 64)
        #expect(relative.error.contains("absolute path"))
        let unknown = try await Self.install(["--frobnicate"])
        #expect(unknown.status == 64)
        let folder = try TemporaryDirectory("install")
        defer { folder.remove() }
        let binary = try #require(BinaryRunner.executable)
        let dry = try await Self.install(["--prefix", folder.path("p"), "--binary", binary.path, "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.outputText.contains("install \(folder.path("p"))/share/man/man1/ndeftool.1"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("p")))
    }
}
