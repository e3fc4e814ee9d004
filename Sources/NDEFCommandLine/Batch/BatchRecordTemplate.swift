import NDEF
import Provisioning
import RecordSpecifications

/// The message a batch writes to each tag: a ``Provisioning/MessageTemplate`` of record
/// specifications as `ndeftool write` takes them, with the command line's exit statuses for
/// its failures.
struct BatchRecordTemplate: Sendable {
    /// The placeholders, the canonical text and the structure of the specifications.
    let template: MessageTemplate

    /// A template of the record words `words` for a plan with `fields`.
    ///
    /// - Throws: a usage error for words that are not record specifications (naming the word),
    ///   a data error for a placeholder the plan does not have.
    init(words: [String], fields: [String]) throws(CommandLineError) {
        do {
            template = try MessageTemplate(arguments: words, fields: fields)
        } catch {
            throw Self.failure(of: error)
        }
    }

    /// A template from its canonical text, as a journal records it.
    init(text: String, fields: [String]) throws(CommandLineError) {
        do {
            template = try MessageTemplate(text, fields: fields)
        } catch {
            throw CommandLineError(.dataError, "The journal's template: \(error.description)")
        }
    }

    /// The message of `row` for the tag `uid`, with the UID or NFC counter mirror that
    /// `{uid-mirror}` and `{counter-mirror}` set up.
    ///
    /// - Throws: ``CommandLineError`` naming the row when a value does not make a valid record.
    func message(_ row: ProvisioningRow, uid: [UInt8]) throws(CommandLineError) -> ProvisioningMessage {
        do {
            return try template.mirroredMessage(for: row, uid: uid)
        } catch {
            throw CommandLineError(.dataError, error.description)
        }
    }

    /// Builds every row of `plan` with a sample UID, so that a value that makes no valid record
    /// is found before the first tag is written: the first row's message and the length of
    /// each row's message in bytes, by row number, in order (``Provisioning/MessageTemplate/check(_:inputs:)``,
    /// with each failure naming the row and its plan line).
    func checkSizes(_ plan: ProvisioningPlan) throws(CommandLineError) -> (
        first: NFCNDEFMessage?, lengths: [(row: Int, bytes: Int)]
    ) {
        guard let numbers = plan.rowNumbers else { return (nil, []) }
        var first: NFCNDEFMessage?
        var lengths: [(row: Int, bytes: Int)] = []
        for number in numbers {
            guard let row = plan.row(number) else { continue }
            do {
                let message = try template.mirroredMessage(for: row, uid: MessageTemplate.sampleUID).message
                lengths.append((number, try template.encodedLength(of: message, row: row)))
                if first == nil { first = message }
            } catch {
                let detail = (error.underlying as? RecordSpecError)?.message ?? error.reason
                throw CommandLineError(.dataError, "Row \(number) (plan line \(row.line)): \(detail)")
            }
        }
        return (first, lengths)
    }

    /// The command line's failure for a template that cannot be made: a placeholder the plan
    /// lacks is a fault of the plan as much as of the template (65, as a malformed plan); words
    /// that are not record specifications are a usage error (64) with the grammar's message.
    private static func failure(of error: ProvisioningError) -> CommandLineError {
        if let recordError = error.underlying as? RecordSpecError { return CommandLineError(recordError) }
        guard error.code == .unknownPlaceholder else { return .usage("The record template: \(error.reason)") }
        return CommandLineError(.dataError, "The record template: \(error.reason)")
    }
}
