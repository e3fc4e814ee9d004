import CommandLineKit
import NDEF
import RecordSpecifications

/// The record specifications on the command line: parsed and built with the command line's
/// failures, and shown in help as synopses and the kinds and options sections.
extension RecordSpecGrammar {
    /// The specifications in the elements the command-line parser captured.
    func commandLineSpecs(_ tokens: [CapturedToken]) throws(CommandLineError) -> [RecordSpec] {
        do {
            return try parse(tokens)
        } catch {
            throw CommandLineError(error)
        }
    }

    /// The records of `specs`, reading files and standard input through `inputs`.
    func commandLineRecords(_ specs: [RecordSpec], inputs: InputReader) throws(CommandLineError) -> [NFCNDEFPayload] {
        do {
            return try build(specs, inputs: inputs)
        } catch {
            throw CommandLineError(error)
        }
    }

    /// Help lines: one synopsis per kind, continuation lines indented under the first value.
    var synopses: String {
        let width = HelpLayout.screenWidth - 2
        return kinds.map { kind in
            let indent = String(repeating: " ", count: kind.name.count + 3)
            var lines: [String] = []
            var line = "  "
            for part in kind.synopsisParts {
                if line.count + 1 + part.count > width && !line.trimmingPrefix(" ").isEmpty {
                    lines.append(line)
                    line = indent
                }
                line += (line.last == " " ? "" : " ") + part
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// A help section listing every kind with its description.
    var kindSection: HelpSection {
        HelpSection(
            title: "Record kinds", elements: kinds.map { HelpSection.Element(label: $0.name, abstract: $0.abstract) })
    }

    /// A help section listing every record option, prefixed by the kinds that take it.
    var optionSection: HelpSection {
        var elements: [HelpSection.Element] = []
        var owners: [[String]] = []
        let entries =
            kinds.flatMap { kind in kind.options.map { (kind: kind.name, option: $0) } }
            + RecordKind.sharedOptions.map { (kind: "all", option: $0) }
        for entry in entries {
            let element = HelpSection.Element(label: entry.option.helpLabel, abstract: entry.option.helpAbstract)
            if let index = elements.firstIndex(of: element) {
                owners[index].append(entry.kind)
            } else {
                elements.append(element)
                owners.append([entry.kind])
            }
        }
        for index in elements.indices {
            elements[index].abstract = owners[index].joined(separator: ", ") + ": " + elements[index].abstract
        }
        return HelpSection(title: "Record options", elements: elements)
    }

}
