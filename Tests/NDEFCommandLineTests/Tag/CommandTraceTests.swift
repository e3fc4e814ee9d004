import NFCSession
import Testing

@testable import NDEFCommandLine

/// The tracer's state, frame by frame: counts, what is hidden, and the chip GET_VERSION names.
@Suite struct CommandTraceTests {
    /// NTAG213's GET_VERSION answer (NTAG213/215/216 datasheet 10.1): PWD page 2Bh, PACK 2Ch.
    static let ntag213Version: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]

    @Test("Commands are counted by name; PWD_AUTH shows its opcode only, and its answer is secret")
    func passwordAuthentication() {
        var trace = CommandTrace()
        let read = trace.send([0x30, 0x04])
        #expect(read.name == "READ" && read.shownBytes == nil && !read.isWrite && !read.answerIsSecret)
        let auth = trace.send([0x1B, 0x01, 0x02, 0x03, 0x04])
        #expect(auth.name == "PWD_AUTH" && auth.shownBytes == 1 && auth.answerIsSecret)
        #expect(CommandTrace.shown([0x1B, 0x01, 0x02, 0x03, 0x04], shownBytes: auth.shownBytes) == "1B ** ** ** **")
        _ = trace.send([0x51])
        #expect(trace.counts == ["READ": 1, "PWD_AUTH": 1, "command 51h": 1])
    }

    @Test("Before GET_VERSION every chip's PWD and PACK pages are hidden; after it, only that chip's")
    func versionNarrowsSecretPages() {
        var trace = CommandTrace()
        // NTAG215's PWD page 85h: hidden while the chip is unknown.
        #expect(trace.send([0xA2, 0x85, 1, 2, 3, 4]).shownBytes == 2)
        #expect(trace.send([0xA2, 0x04, 1, 2, 3, 4]).shownBytes == nil)
        let version = trace.send([0x60])
        #expect(version.asksVersion)
        trace.answered(version, with: .data(Self.ntag213Version))
        #expect(trace.secretPages == [0x2B, 0x2C])
        #expect(trace.send([0xA2, 0x85, 1, 2, 3, 4]).shownBytes == nil)
        let write = trace.send([0xA2, 0x2B, 1, 2, 3, 4])
        #expect(write.shownBytes == 2 && write.isWrite)
        #expect(CommandTrace.shown([0xA2, 0x2B, 1, 2, 3, 4], shownBytes: 2) == "A2 2B ** ** ** **")
        // A NAK to GET_VERSION, or an answer of no known chip, changes nothing.
        let again = trace.send([0x60])
        trace.answered(again, with: .nak(0))
        trace.answered(again, with: .data([0xFF]))
        #expect(trace.secretPages == [0x2B, 0x2C])
    }

    @Test("A COMPATIBILITY_WRITE is one command of two frames; the data frame of a secret page is all hidden")
    func compatibilityWrite() {
        var trace = CommandTrace()
        let command = trace.send([0xA0, 0x85])
        #expect(command.name == "COMPATIBILITY_WRITE" && command.isWrite && command.shownBytes == 2)
        let data = trace.send([0x30] + Array(repeating: 0x11, count: 15))
        #expect(data.name == "COMPATIBILITY_WRITE data" && data.isWrite && data.shownBytes == 0)
        #expect(CommandTrace.shown([1, 2], shownBytes: 0) == "** **")
        #expect(trace.counts == ["COMPATIBILITY_WRITE": 1])
        // To a page that is no secret, the data frame is shown; the frame after it is a command again.
        _ = trace.send([0xA0, 0x04])
        #expect(trace.send([0x30, 0x04]).shownBytes == nil)
        #expect(trace.send([0x30, 0x04]).name == "READ")
        #expect(trace.counts == ["COMPATIBILITY_WRITE": 2, "READ": 1])
    }

    @Test("APDUs are counted under one name; an empty frame is named as such")
    func apdusAndEmptyFrames() {
        var trace = CommandTrace()
        trace.sendAPDU()
        trace.sendAPDU()
        #expect(trace.send([]).name == "empty frame")
        #expect(trace.counts == ["APDU": 2, "empty frame": 1])
    }
}
