import NDEF
import Provisioning
import RecordSpecifications
import TestSupport
import Testing

@Suite("Message templates rendering record-specification words")
struct TemplateTests {
    private let row = ProvisioningRow(number: 7, line: 9, values: ["serial": "0042", "label": "Hall A, door 1"])
    private let uid = hex("04A2B3C4D5E680")

    @Test func rendersWords() throws {
        let template = try MessageTemplate("uri https://example.com/t/{serial}", fields: ["serial", "label"])
        #expect(try template.render(row, uid: uid) == ["uri", "https://example.com/t/0042"])
        #expect(template.placeholders == ["serial"])
    }

    @Test func builtInsAndEscapes() throws {
        let template = try MessageTemplate(
            "text \"{label} ({row:3})\" --lang en uri 'https://x.test/{uid}?l={uid:lower}&r={row}' text {{x}}",
            fields: ["serial", "label"])
        #expect(
            try template.render(row, uid: uid) == [
                "text", "Hall A, door 1 (007)", "--lang", "en", "uri",
                "https://x.test/04A2B3C4D5E680?l=04a2b3c4d5e680&r=7", "text", "{x}",
            ])
        #expect(template.placeholders == ["label", "row", "uid"])
    }

    @Test func argumentsKeepSpacesAndTextRoundTrips() throws {
        let template = try MessageTemplate(arguments: ["text", "a \"b\" {serial}"], fields: ["serial"])
        #expect(try template.render(row, uid: uid) == ["text", "a \"b\" 0042"])
        let again = try MessageTemplate(template.text, fields: ["serial"])
        #expect(again == template)
    }

    @Test func unknownPlaceholderNamesItAndTheFields() throws {
        let error = #expect(throws: ProvisioningError(.unknownPlaceholder, "")) {
            try MessageTemplate("uri https://x.test/{serail}", fields: ["serial", "url"])
        }
        #expect(error?.reason.contains("{serail}") == true)
        #expect(error?.reason.contains("{serial}") == true)
        #expect(error?.reason.contains("{url}") == true)
        #expect(error?.line == 1)
    }

    @Test func counterIsAFieldOnlyOfCounterPlans() throws {
        let plan = try ProvisioningPlan.counter(from: 1, to: 3, width: 3)
        let template = try MessageTemplate("uri https://x.test/{counter}", fields: plan.fields)
        let row = try #require(plan.row(2))
        #expect(try template.render(row, uid: uid) == ["uri", "https://x.test/002"])
        #expect(throws: ProvisioningError(.unknownPlaceholder, "")) {
            try MessageTemplate("uri {counter}", fields: ["serial"])
        }
    }

    @Test(arguments: [
        "uri {serial", "uri serial}", "uri 'open", "uri \"open", "", "   ", "uri {uid:mixed}", "uri {row:0}",
        "uri {serial:lower}",
    ])
    func malformed(text: String) {
        #expect(throws: ProvisioningError.self) { try MessageTemplate(text, fields: ["serial"]) }
    }

    @Test func controlCharactersAreRefused() throws {
        let template = try MessageTemplate("text {label}", fields: ["label"])
        for bad in ["a\nb", "a\u{0}b", "tab\there", "del\u{7F}", "c1\u{85}"] {
            let row = ProvisioningRow(number: 3, line: 4, values: ["label": bad])
            let error = #expect(throws: ProvisioningError(.controlCharacter, "")) {
                try template.render(row, uid: uid)
            }
            #expect(error?.line == 4)
            #expect(error?.reason.contains("label") == true)
        }
    }

    @Test func checkFindsTheBadRowOfAPlan() throws {
        let plan = try ProvisioningPlan.csv(ProvisioningFixtures.load("tags.csv"))
        try MessageTemplate("uri {url}", fields: plan.fields).check(plan)
        let error = #expect(throws: ProvisioningError(.controlCharacter, "")) {
            try MessageTemplate("text {label}", fields: plan.fields).check(plan)
        }
        #expect(error?.line == 4)
    }

    @Test func rendersRowsToMessages() throws {
        let plan = try ProvisioningPlan.counter(from: 1, to: 3, width: 4)
        let template = try MessageTemplate(
            "uri https://example.com/t/{counter}?u={uid} text 'Desk {row}' --lang en", fields: plan.fields)
        let row = try #require(plan.row(2))
        let message = try template.message(for: row, uid: uid)
        #expect(message.records.count == 2)
        #expect(message.records[0].wellKnownURI == "https://example.com/t/0002?u=04A2B3C4D5E680")
        #expect(message.records[1].wellKnownText?.text == "Desk 2")
        let lengths = try template.check(plan)
        #expect(lengths.map(\.row) == [1, 2, 3])
        #expect(lengths.allSatisfy { $0.bytes == lengths[0].bytes })
    }

    @Test func wordsThatAreNotRecordsAreRefusedWhenTheTemplateIsMade() {
        let error = #expect(throws: ProvisioningError(.invalidRecords, "")) {
            try MessageTemplate("uri {serial} --lnag en", fields: ["serial"])
        }
        #expect(error?.reason == "Unknown option '--lnag'")
        #expect((error?.underlying as? RecordSpecError)?.code == .invalidSpecification)
    }

    @Test func aValueThatMakesNoRecordNamesTheRowAndLine() throws {
        let template = try MessageTemplate("text hello --lang {serial}", fields: ["serial"])
        let bad = ProvisioningRow(number: 5, line: 6, values: ["serial": "not a language"])
        let error = #expect(throws: ProvisioningError(.invalidRecords, "")) {
            try template.message(for: bad, uid: uid)
        }
        #expect(error?.line == 6)
        #expect(
            error?.reason.hasPrefix("row 5: The value 'not a language' is invalid for '--lang'") == true,
            "\(String(describing: error))")
        // A value is always a value: a field holding an option or a kind word stays text.
        let sneaky = ProvisioningRow(number: 1, line: 2, values: ["serial": "--utf16"])
        let textTemplate = try MessageTemplate("text {serial}", fields: ["serial"])
        #expect(try textTemplate.message(for: sneaky, uid: uid).records[0].wellKnownText?.text == "--utf16")
    }
}
