import HexText
import NDEF
import NTAG424
import TagMemory

extension SimulatedType4Tag {
    /// The tag as text, to save it to a file and load it back with ``init(stateText:)``.
    ///
    /// One `key value` pair per line; `#` starts a comment; numbers and bytes are hexadecimal.
    /// The first line names the format (`ndeftool-type4-tag 1`), the configuration follows
    /// (`uid`, `mapping-version`, `mle`, `mlc`, `ndef-file`, `ndef-file-size`, `read-access`,
    /// `write-access`, `cc-writable`, `end-of-file-warning`, `frame-size`), then the CC file as
    /// it is now (`cc`), the NDEF file in `ndef` lines of 16 bytes (up to its last byte other
    /// than 00h; the rest of the file is 00h) and a final `end` line, so a cut-off text is
    /// refused rather than loaded short. The selection, state and command counts are not kept:
    /// a loaded tag is powered down.
    public var stateText: String {
        let fieldSize = factoryCapabilityContainer.messageLengthFieldSize
        let used = max(fieldSize, (ndefFile.lastIndex { $0 != 0 } ?? -1) + 1)
        let length = ndefFile.prefix(fieldSize).reduce(0) { $0 << 8 | Int($1) }
        var lines = [
            "# Simulated NFC Forum Type 4 tag: its configuration, then its CC and NDEF files as they are now.",
            "# One \"key value\" pair per line; numbers and bytes are hexadecimal; \"#\" starts a comment.",
            "\(SimulatedType4StateText.formatName) \(SimulatedType4StateText.formatVersion)",
            "uid \(Hex.bytes(uid))",
            "mapping-version \(Hex.bytes([configuration.mappingVersion]))",
            "mle \(Hex.number(configuration.maximumResponseDataSize, minimumDigits: 4))"
                + "  # \(configuration.maximumResponseDataSize) bytes per READ BINARY response",
            "mlc \(Hex.number(configuration.maximumCommandDataSize, minimumDigits: 4))"
                + "  # \(configuration.maximumCommandDataSize) bytes per UPDATE BINARY",
            "ndef-file \(Hex.number(Int(configuration.ndefFileIdentifier), minimumDigits: 4))",
            "ndef-file-size \(Hex.number(configuration.maximumNDEFFileSize, minimumDigits: 8))"
                + "  # \(configuration.maximumNDEFFileSize) bytes",
            "read-access \(Hex.bytes([configuration.readAccess.rawValue]))",
            "write-access \(Hex.bytes([configuration.writeAccess.rawValue]))",
            "cc-writable \(configuration.isCapabilityContainerWritable ? "yes" : "no")",
            "end-of-file-warning \(configuration.reportsEndOfFile ? "yes" : "no")",
            "frame-size \(Hex.number(configuration.frameSize, minimumDigits: 4))  # \(configuration.frameSize) bytes",
            "# CC file E103, \(capabilityContainerFile.count) bytes",
            "cc \(Hex.bytes(capabilityContainerFile))",
            "# NDEF file \(Hex.number(Int(configuration.ndefFileIdentifier), minimumDigits: 4)), \(ndefFile.count) bytes, "
                + "\(fieldSize == 4 ? "ENLEN" : "NLEN") \(length); \(used) bytes written here, the rest 00",
        ]
        for start in stride(from: 0, to: used, by: 16) {
            let line = ndefFile[start..<min(used, start + 16)]
            lines.append("ndef \(Hex.bytes(line))  # \(Hex.number(start, minimumDigits: 4))")
        }
        if let chip = ntag424 {
            lines += [
                "# NTAG 424 DNA: keys 0-4 (a simulated tag's keys: never a real tag's), versions, file settings",
                "ntag424-keys \(Hex.bytes(chip.keys.joined()))",
                "ntag424-key-versions \(Hex.bytes(chip.keyVersions))",
            ]
            for number in [UInt8(1), 2, 3] {
                if let settings = chip.fileSettings[number] {
                    lines.append("ntag424-file-\(number) \(Hex.bytes(settings.encoded))")
                }
            }
            lines += [
                "ntag424-sdm-counter \(Hex.number(chip.sdmReadCounter, minimumDigits: 6))",
                "ntag424-proprietary-file \(Hex.bytes(chip.proprietaryFile))",
                "ntag424-signature \(Hex.bytes(chip.signature))",
            ]
            if chip.mode == .lrp { lines.append("ntag424-mode LRP") }
            if let tamper = chip.tagTamper {
                lines.append("# NTAG 424 DNA TT: TagTamper enabled (00/01), TTStatusKey, permanent status, loop (C/O)")
                lines.append("ntag424-tag-tamper \(Hex.bytes(tamper.stateBytes))")
            }
        }
        lines.append("end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Loads a tag saved with ``stateText``, powered down with nothing selected.
    ///
    /// - Throws: ``TagMemory/TagMemoryError/Code/malformedDump`` (its offset is the UTF-8 offset of the
    ///   line) for a text that is not in the format, lacks a required line or its `end` line,
    ///   repeats a key, holds a value that does not parse or fit, a configuration that makes
    ///   no valid CC, a CC whose size differs from the one the configuration makes, or NDEF
    ///   bytes beyond the file size (or beyond
    ///   ``Configuration/maximumSimulatedFileSize``, checked while reading).
    public init(stateText: String) throws(TagMemoryError) {
        let text = try SimulatedType4StateText(parsing: stateText)
        let tag: SimulatedType4Tag
        do {
            tag = try SimulatedType4Tag(configuration: text.configuration, ndefFile: text.ndefFile)
        } catch {
            throw TagMemoryError(.malformedDump, "the saved tag cannot be rebuilt: \(error.reason)")
        }
        self = tag
        guard text.ntag424 != nil || text.capabilityContainerFile.count == capabilityContainerFile.count else {
            throw TagMemoryError(
                .malformedDump,
                "the saved CC file has \(text.capabilityContainerFile.count) bytes but this configuration makes "
                    + "\(capabilityContainerFile.count)")
        }
        if let chip = text.ntag424 {
            ntag424 = chip
            capabilityContainerFile = text.capabilityContainerFile
            return
        }
        capabilityContainerFile = text.capabilityContainerFile
    }

    /// Whether `bytes` begin as a ``stateText`` does: their first line that is neither blank
    /// nor a `#` comment starts with the format's name, `ndeftool-type4-tag`. A quick check to
    /// tell a saved Type 4 tag from a Type 2 dump; ``init(stateText:)`` checks the rest.
    public static func looksLikeStateText(_ bytes: some Collection<UInt8>) -> Bool {
        let name = Array(SimulatedType4StateText.formatName.utf8)
        var rest = bytes[...]
        while let first = rest.first {
            if first == UInt8(ascii: "#") {
                rest = rest.drop { $0 != UInt8(ascii: "\n") }
            } else if isWhitespace(first) {
                rest = rest.dropFirst()
            } else {
                return rest.prefix { !isWhitespace($0) && $0 != UInt8(ascii: "#") }.elementsEqual(name)
            }
        }
        return false
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\n")
    }
}
