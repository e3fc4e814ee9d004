import NDEF
import Provisioning
import TagMemory
import Testing

/// `{uid-mirror}` and `{counter-mirror}` in message templates (NTAG213/215/216 8.7).
@Suite struct TemplateMirrorTests {
    @Test("The mirror follows the row's fields: each row's request points at its own placeholder")
    func perRowOffsets() throws {
        let template = try MessageTemplate(
            arguments: ["uri", "https://x.example/{serial}?m={uid-mirror}x{counter-mirror}"], fields: ["serial"])
        #expect(template.mirrorMode == .uidAndNFCCounter)
        #expect(template.placeholders == ["serial", "uid-mirror", "counter-mirror"])
        for serial in ["1", "12345"] {
            let row = ProvisioningRow(number: 1, line: 2, values: ["serial": serial])
            let made = try template.mirroredMessage(for: row, uid: MessageTemplate.sampleUID)
            let request = try #require(made.mirror)
            // D1 01 len 55 04 "x.example/" SERIAL "?m=": the placeholder at 5 + 10 + count + 3.
            #expect(request.mode == .uidAndNFCCounter && request.messageOffset == 18 + serial.count)
            let bytes = try made.message.encoded()
            let placeholder = Array(bytes[request.messageOffset..<(request.messageOffset + 21)])
            #expect(placeholder == Type2Configuration.MirrorMode.uidAndNFCCounter.placeholder)
        }
    }

    @Test("A field between the two mirrors, or a mirror twice, is refused when the template is made")
    func refused() {
        for words in [
            ["uri", "https://x/{serial}?m={uid-mirror}{serial}x{counter-mirror}"],
            ["uri", "https://x/?a={counter-mirror}&b={counter-mirror}"],
            ["uri", "https://x/?u={uid-mirror}", "text", "{counter-mirror}"],
        ] {
            #expect(throws: ProvisioningError.self, "\(words)") {
                try MessageTemplate(arguments: words, fields: ["serial"])
            }
        }
    }

    @Test("A field value that spells a placeholder stays text: no mirror")
    func valueIsNotAPlaceholder() throws {
        let template = try MessageTemplate(arguments: ["uri", "https://x/{serial}"], fields: ["serial"])
        #expect(template.mirrorMode == .none)
        let row = ProvisioningRow(number: 1, line: 2, values: ["serial": "{uid-mirror}"])
        let made = try template.mirroredMessage(for: row, uid: MessageTemplate.sampleUID)
        #expect(made.mirror == nil)
    }
}
