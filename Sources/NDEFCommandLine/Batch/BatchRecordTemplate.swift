import NDEF
import Provisioning

/// The message a batch writes to each tag: record specifications as `ndeftool write` takes
/// them, whose values may hold placeholders (``Provisioning/MessageTemplate``: `{field}`,
/// `{uid}`, `{row}`).
///
/// The structure (which word is a record kind, an option, a value) is read once from the
/// template as written, so a value from the plan is always a value: a field holding `--file`
/// or `uri` cannot turn into an option or a record.
struct BatchRecordTemplate: Sendable {
    /// The placeholders and the canonical text.
    let template: MessageTemplate
    /// Where each element of the specifications is among the template's words.
    let structure: [RecordSpecGrammar.WordToken]

    /// A template of the record words `words` for a plan with `fields`.
    ///
    /// - Throws: a usage error for words that are not record specifications (naming the word)
    ///   or a placeholder the plan does not have.
    init(words: [String], fields: [String]) throws(CommandLineError) {
        do {
            template = try MessageTemplate(arguments: words, fields: fields)
        } catch {
            // A placeholder the plan lacks is a fault of the plan as much as of the template:
            // the data do not match (65), as with a malformed plan.
            guard error.code == .unknownPlaceholder else { throw .usage("The record template: \(error.reason)") }
            throw CommandLineError(.dataError, "The record template: \(error.reason)")
        }
        structure = try RecordSpecGrammar.standard.structure(of: template.arguments)
    }

    /// A template from its canonical text, as a journal records it.
    init(text: String, fields: [String]) throws(CommandLineError) {
        let parsed: MessageTemplate
        do {
            parsed = try MessageTemplate(text, fields: fields)
        } catch {
            throw CommandLineError(.dataError, "The journal's template: \(error.description)")
        }
        try self.init(words: parsed.arguments, fields: fields)
    }

    /// The message of `row` for the tag `uid`.
    ///
    /// - Throws: ``CommandLineError`` naming the row when a value does not make a valid record.
    func message(_ row: ProvisioningRow, uid: [UInt8]) throws(CommandLineError) -> NFCNDEFMessage {
        let rendered: [String]
        do {
            rendered = try template.render(row, uid: uid)
        } catch {
            throw CommandLineError(.dataError, error.description)
        }
        guard rendered.count == template.arguments.count else {
            throw CommandLineError(
                .internalError, "the template rendered \(rendered.count) words, not \(template.arguments.count)")
        }
        let grammar = RecordSpecGrammar.standard
        var inputs = InputReader(io: BatchTemplateIO.shared)
        let specs = try grammar.parse(grammar.tokens(structure, rendered: rendered))
        let message = NFCNDEFMessage(records: try grammar.build(specs, context: &inputs))
        guard !message.records.isEmpty else { throw CommandLineError(.dataError, "the template makes no record") }
        return message
    }

    /// Builds every row of `plan` with a sample UID, so that a value that makes no valid record
    /// is found before the first tag is written. Returns the first row's message.
    func check(_ plan: ProvisioningPlan) throws(CommandLineError) -> NFCNDEFMessage? {
        try checkSizes(plan).first
    }

    /// ``check(_:)``, with the length of each row's message in bytes (rendered with
    /// ``sampleUID``), by row number, in order.
    func checkSizes(_ plan: ProvisioningPlan) throws(CommandLineError) -> (
        first: NFCNDEFMessage?, lengths: [(row: Int, bytes: Int)]
    ) {
        guard let numbers = plan.rowNumbers else { return (nil, []) }
        var first: NFCNDEFMessage?
        var lengths: [(row: Int, bytes: Int)] = []
        for number in numbers {
            guard let row = plan.row(number) else { continue }
            let message: NFCNDEFMessage
            do {
                message = try self.message(row, uid: Self.sampleUID)
                lengths.append((number, try message.encoded().count))
            } catch let error as CommandLineError {
                throw CommandLineError(.dataError, "Row \(number) (plan line \(row.line)): \(error.message)")
            } catch {
                throw CommandLineError(.dataError, "Row \(number) (plan line \(row.line)): \(error)")
            }
            if first == nil { first = message }
        }
        return (first, lengths)
    }

    /// The UID rows are checked with: 7 bytes, NXP's manufacturer code first.
    static let sampleUID: [UInt8] = [0x04, 0, 0, 0, 0, 0, 0]
}

/// What a batch template reads while building records: files, never standard input (each
/// row would need it again).
final class BatchTemplateIO: CommandIO, Sendable {
    /// The one instance.
    static let shared = BatchTemplateIO()

    func readStandardInput() throws(CommandLineError) -> [UInt8] {
        throw .usage("A batch template cannot read standard input ('-'): name a file")
    }

    func writeOutput(_ bytes: [UInt8]) throws(CommandLineError) {}

    func writeError(_ text: String) {}

    func environment(_ name: String) -> String? { nil }
}
