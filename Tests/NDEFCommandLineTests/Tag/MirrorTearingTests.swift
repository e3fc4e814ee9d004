import Foundation
import TagMemory
import TestSupport
import Testing

/// Writes with the UID and NFC counter mirror cut after every tag command, through the built
/// binary on a simulated NTAG215 kept in a file: the command in flight is carried out
/// (`complete`), not at all (`none`), or torn (`tear`: bytes 0-1 of the page new, 2-3 old;
/// NTAG213/215/216 10.4 protects no user or configuration page against it).
///
/// After every cut the tag holds the old message, an empty one or the new one, and the chip
/// mirrors nothing but a placeholder: a phone never sees a UID or counter over other text. The
/// same command run again finishes the write and the mirror.
@Suite("Mirror tearing matrix: every cut leaves a whole message and a mirror over its placeholder only")
struct MirrorTearingTests {
    static let first = "https://x.example/t?m={uid-mirror}x{counter-mirror}"
    static let second = "https://x.example/a/much/longer/path/?c={counter-mirror}"

    /// What is cut.
    enum Scenario: String, CaseIterable, CustomTestStringConvertible {
        /// Both mirrors onto a tag holding a plain URI.
        case setUp
        /// Another message whose mirror lies elsewhere, over a mirrored tag.
        case move
        /// A plain message over a mirrored tag.
        case plainOverMirror

        var testDescription: String { rawValue }

        /// The message on the tag before the command, written with `write`.
        var before: String { self == .setUp ? "https://example.com/old" : MirrorTearingTests.first }

        /// The URI the cut command writes.
        var uri: String {
            switch self {
            case .setUp: MirrorTearingTests.first
            case .move: MirrorTearingTests.second
            case .plainOverMirror: "https://example.com/plain"
            }
        }

        /// CFG0 (its start) and CFG1 once the command is complete.
        var finalConfiguration: (cfg0: String, cfg1: String) {
            switch self {
            // MIRROR_CONF 11b, byte 1, STRG_MOD_EN: D4h; page 9.
            case .setUp: ("D4 00 09 FF", "10 00 00 00")
            // D1 01 len 55 04 "x.example/a/much/longer/path/?c=" (32): message byte 37, address
            // 16 + 2 + 37 = 55: page 13 byte 3; MIRROR_CONF 10b, byte 3: B4h.
            case .move: ("B4 00 0D FF", "10 00 00 00")
            // MIRROR_CONF 00b: off (a torn CFG0 write may leave MIRROR_PAGE as it was).
            case .plainOverMirror: ("04 00", "10 00 00 00")
            }
        }
    }

    /// The raw message bytes as text, and whether the chip mirrors only over its placeholder.
    static func state(_ tag: PasswordTagFile) throws -> (message: String?, mirrorOverPlaceholder: Bool) {
        let dump = try TagDump(decoding: Array(tag.contents().utf8), fileName: "tag.nfc")
        let memory = Type2Memory(bytes: dump.memory, chip: .ntag215)
        let message = memory.ndefMessageBytes.map { String(decoding: $0, as: UTF8.self) }
        guard let configuration = memory.configuration, let mirror = configuration.mirror,
            let range = configuration.mirroredBytes(authenticated: false)
        else { return (message, true) }
        return (message, Array(memory.bytes[range]) == Array(mirror.mode.placeholder.prefix(range.count)))
    }

    /// The message text as stored (URI prefix code 04h for https://, placeholders as 0s).
    static func stored(_ uri: String) -> String {
        let filled = uri.replacing("{uid-mirror}", with: String(repeating: "0", count: 14))
            .replacing("{counter-mirror}", with: String(repeating: "0", count: 6))
        let rest = filled.dropFirst("https://".count)
        return String(decoding: [0xD1, 0x01, UInt8(rest.utf8.count + 1), 0x55, 0x04], as: UTF8.self) + rest
    }

    @Test(
        "T2T 1.1 6.4.3 and NTAG213/215/216 8.7: every cut leaves a whole message and an honest mirror; running again completes",
        arguments: Scenario.allCases, ["tear", "none", "complete"])
    func everyCut(scenario: Scenario, inFlight: String) async throws {
        var cut = 1
        while cut < 60 {
            let tag = try PasswordTagFile()
            defer { tag.folder.remove() }
            #expect(try await tag.run(["write", "uri", scenario.before]).status == 0)
            let command = ["write", "uri", scenario.uri]
            let interrupted = try await tag.run(command, faults: "&remove-after=\(cut)&in-flight=\(inFlight)")
            if interrupted.status == 0 { break }  // the run needs fewer commands: every cut was tried
            let context = "\(scenario) cut at command \(cut) (\(inFlight))"
            #expect([75, 80].contains(interrupted.status), "\(context): \(interrupted.error)")
            let state = try Self.state(tag)
            let allowed = [Self.stored(scenario.before), "", Self.stored(scenario.uri)]
            #expect(state.message.map(allowed.contains) == true, "\(context): \(state.message ?? "no message")")
            #expect(state.mirrorOverPlaceholder, "\(context): CFG0 \(tag.page(131) ?? "?") over \(state.message ?? "")")

            let rerun = try await tag.run(command)
            #expect(rerun.status == 0, "\(context), then run again: \(rerun.error)")
            let final = try Self.state(tag)
            #expect(final.message == Self.stored(scenario.uri), "\(context)")
            #expect(final.mirrorOverPlaceholder, "\(context)")
            #expect(
                tag.page(131)?.hasPrefix(scenario.finalConfiguration.cfg0) == true,
                "\(context): CFG0 \(tag.page(131) ?? "?")")
            #expect(tag.page(132) == scenario.finalConfiguration.cfg1, "\(context): CFG1 \(tag.page(132) ?? "?")")
            cut += 1
        }
        #expect(cut > 5, "the command was cut \(cut - 1) times")
    }
}
