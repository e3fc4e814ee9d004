import HexText
import NFCWireFormat
import TagMemory

/// APDU exchange for the Type 4 NDEF procedures (NFC Forum Type 4 Tag 3.0, 5.5; ISO/IEC 7816-4
/// status words).
extension NFCISO7816Tag {
    /// The response data a reader frame can carry (its frame less SW1 SW2), for READ BINARY Le;
    /// the reader's extended-length limit when it passes extended APDUs.
    var responseDataBudget: Int {
        let capabilities = reader.capabilities
        if capabilities.supportsExtendedLengthAPDUs { return capabilities.maximumAPDUDataSize }
        return max(1, capabilities.maximumFrameSize - 2)
    }

    /// The command data a reader frame can carry (its frame less CLA, INS, P1, P2, Lc and Le), for
    /// UPDATE BINARY; the reader's extended-length limit when it passes extended APDUs.
    var commandDataBudget: Int {
        let capabilities = reader.capabilities
        if capabilities.supportsExtendedLengthAPDUs { return capabilities.maximumAPDUDataSize }
        return max(1, capabilities.maximumFrameSize - 6)
    }

    /// Sends `command` and splits the answer into data and status word.
    func transmit(_ command: Type4Command) async throws(NFCReaderError) -> Type4Response {
        let bytes = try await exchange(command.bytes)
        do {
            return try Type4Response(parsing: bytes)
        } catch {
            throw NFCReaderError(.tagConnectionLost, "the answer is shorter than the status word")
        }
    }

    /// SELECT by file identifier (T4T 3.0, 5.5.3, 5.5.5).
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotSupported`` when the file is not found.
    func selectFile(_ identifier: UInt16, majorVersion: Int) async throws(NFCReaderError) {
        let response = try await transmit(Type4Command.selectFile(identifier, majorVersion: majorVersion))
        guard response.isSuccess else {
            throw NFCReaderError(
                .tagNotSupported,
                "SELECT of file \(Hex.bytes([UInt8(truncatingIfNeeded: identifier >> 8), UInt8(truncatingIfNeeded: identifier)])) "
                    + "failed: \(response.status)")
        }
    }

    /// READ BINARY of `length` bytes at `offset` of the selected file; the tag may answer fewer at
    /// the end of the file.
    func readBinary(offset: Int, length: Int, what: String) async throws(NFCReaderError) -> [UInt8] {
        let command: Type4Command
        do {
            command = try Type4Command.readBinary(offset: offset, length: length)
        } catch {
            throw NFCReaderError(planning: error, "cannot read \(what)")
        }
        let response = try await transmit(command)
        guard response.isSuccess else { throw Self.readError(response.status, what: what) }
        let data: [UInt8]
        do {
            data = try response.binaryData(for: command)
        } catch {
            throw NFCReaderError(planning: error, "READ BINARY of \(what)")
        }
        guard data.count <= length else {
            throw NFCReaderError(
                .tagResponseError, "READ BINARY of \(what) answered \(data.count) bytes, not \(length)")
        }
        return data
    }

    /// NLEN and the message of the NDEF file (T4T 3.0, 5.5.6), selecting the file unless
    /// `selected`; reads follow TagMemory's ``Type4ReadPlan``.
    func readNDEFFile(_ opened: OpenedNDEF, selected: Bool = false) async throws(NFCReaderError) -> [UInt8] {
        let cc = opened.capabilityContainer
        if !selected { try await selectFile(cc.ndefFile.fileIdentifier, majorVersion: opened.majorVersion) }
        let lengthField = try await readBinary(offset: 0, length: cc.messageLengthFieldSize, what: "NLEN")
        let plan: Type4ReadPlan
        do {
            let length = try Type4NDEFFile.messageLength(in: lengthField[...], capabilityContainer: cc)
            plan = try cc.readPlan(messageLength: length, maximumResponseData: responseDataBudget)
        } catch {
            throw NFCReaderError(planning: error, "the NDEF file cannot be read")
        }
        var file = lengthField
        for read in plan.dropFirst() {
            let data = try await readBinary(offset: read.offset, length: read.length, what: "the NDEF message")
            guard data.count == read.length else {
                throw NFCReaderError(
                    .tagResponseError, "READ BINARY at \(read.offset) answered \(data.count) of \(read.length) bytes")
            }
            file += data
        }
        return file
    }

    /// The error a failed READ BINARY or SELECT stands for.
    static func readError(_ status: StatusWord, what: String) -> NFCReaderError {
        switch status {
        case .securityStatusNotSatisfied:
            NFCReaderError(.authenticationRequired, "reading \(what) needs authentication (\(status))")
        case .fileNotFound:
            NFCReaderError(.tagNotSupported, "\(what) was not found (\(status))")
        default:
            NFCReaderError(.tagResponseError, "READ BINARY of \(what) failed: \(status)")
        }
    }
}
