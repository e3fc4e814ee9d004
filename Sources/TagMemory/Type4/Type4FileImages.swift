import HexText
import NDEF

/// The elementary files of a Type 4 tag's NDEF application as byte images, with a pure
/// interpreter of write plans: a simulated tag for tests and dry runs.
///
/// Files are keyed by file identifier: `E103` for the capability container (T4T 3.0, 5.1)
/// and the identifier its NDEF File Control TLV names for the NDEF file (5.2). A step writes
/// `data` at offset `address` of file `file`, as UPDATE BINARY does; it never grows a file.
public struct Type4FileImages: Sendable, Hashable {
    /// The file images by identifier.
    public var files: [UInt16: [UInt8]]

    /// Creates images from files.
    public init(files: [UInt16: [UInt8]] = [:]) {
        self.files = files
    }

    /// A tag with `capabilityContainer` and an NDEF file holding `ndefFileContent` (NLEN and
    /// message; an empty file by default), padded with zeros to the maximum NDEF file size.
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` when the maximum file size exceeds
    ///   `maximumSimulatedSize` (a simulated file is kept in memory) or the CC cannot be encoded;
    ///   ``TagMemoryError/Code/insufficientCapacity`` when the content is longer than the file.
    public init(
        capabilityContainer: Type4CapabilityContainer,
        ndefFileContent: [UInt8]? = nil,
        maximumSimulatedSize: Int = 1 << 20
    ) throws(TagMemoryError) {
        let size = capabilityContainer.ndefFile.maximumFileSize
        guard size <= maximumSimulatedSize else {
            throw TagMemoryError(.invalidArgument, "a \(size)-byte NDEF file is larger than the simulation allows")
        }
        let content = ndefFileContent ?? Array(repeating: 0, count: capabilityContainer.messageLengthFieldSize)
        guard content.count <= size else {
            throw TagMemoryError(
                .insufficientCapacity, "\(content.count) bytes of content do not fit a \(size)-byte NDEF file")
        }
        self.files = [
            Type4CapabilityContainer.fileIdentifier: try capabilityContainer.encoded(),
            capabilityContainer.ndefFile.fileIdentifier: content + Array(repeating: 0, count: size - content.count),
        ]
    }

    /// The image of one file, or nil when there is none.
    public subscript(file: UInt16) -> [UInt8]? {
        get { files[file] }
        set { files[file] = newValue }
    }

    /// Applies the steps of `plan` in order, as a tag executes UPDATE BINARY commands.
    ///
    /// A failing step leaves the earlier ones applied, as on a tag.
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` for a step without a file, naming a
    ///   file that does not exist (a tag answers `6A82`), or writing outside the file (`6B00`).
    public mutating func apply(_ plan: TagWritePlan) throws(TagMemoryError) {
        for (index, step) in plan.steps.enumerated() {
            guard let id = step.file else {
                throw TagMemoryError(.invalidArgument, "step \(index) names no file: it is not a Type 4 step")
            }
            guard let size = files[id]?.count else {
                throw TagMemoryError(
                    .invalidArgument, "step \(index) writes file \(Hex.word(id)), which does not exist")
            }
            let (end, overflow) = step.address.addingReportingOverflow(step.data.count)
            guard step.address >= 0, !overflow, end <= size else {
                throw TagMemoryError(
                    .invalidArgument, at: step.address,
                    "step \(index) writes bytes \(step.address)..<\(end) of the \(size)-byte file "
                        + Hex.word(id))
            }
            // In place: the default is never used, the file exists.
            files[id, default: []].replaceSubrange(step.address..<end, with: step.data)
        }
    }

    /// The images after `plan`, leaving these unchanged; see ``apply(_:)``.
    public func applying(_ plan: TagWritePlan) throws(TagMemoryError) -> Type4FileImages {
        var copy = self
        try copy.apply(plan)
        return copy
    }

    /// The capability container parsed from file `E103`.
    ///
    /// - Throws: ``TagMemoryError/Code/notFormatted`` when there is no CC file, and the errors
    ///   of the CC parser.
    public func capabilityContainer() throws(TagMemoryError) -> Type4CapabilityContainer {
        guard let image = files[Type4CapabilityContainer.fileIdentifier] else {
            throw TagMemoryError(.notFormatted, "there is no CC file E103")
        }
        return try Type4CapabilityContainer(parsing: image)
    }

    /// The NDEF file the capability container names, parsed and decoded.
    ///
    /// - Throws: ``TagMemoryError/Code/notFormatted`` when the CC or the NDEF file is missing,
    ///   and the errors of the CC and NDEF file parsers.
    public func ndefFile(options: NDEFDecodingOptions = .init()) throws(TagMemoryError) -> Type4NDEFFile {
        let cc = try capabilityContainer()
        guard let image = files[cc.ndefFile.fileIdentifier] else {
            throw TagMemoryError(.notFormatted, "there is no NDEF file \(Hex.word(cc.ndefFile.fileIdentifier))")
        }
        return try Type4NDEFFile(parsing: image, capabilityContainer: cc, options: options)
    }
}
