import NTAG424

/// TagTamper on an NTAG 424 DNA TT (NXP NT4H2421Tx): the status of its tamper loop, and
/// enabling it (for good).
extension NFCNTAG424Tag {
    /// GetTTStatus (F7h): the permanent and the current status, the loop sampled now; plain
    /// without a session (TTStatusKey free, as delivered), CommMode Full in one.
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotSupported`` on a tag without TagTamper (an NTAG 424
    ///   DNA answers ILLEGAL_COMMAND); ``NFCReaderError/Code/authenticationRequired`` when
    ///   TTStatusKey is a key this session is not; ``NFCReaderError/Code/tagResponseError`` for
    ///   an answer that is not two status bytes.
    public func tagTamperStatus() async throws(NFCReaderError) -> NTAG424TagTamperStatus {
        let data = try await command(0xF7, header: [], data: [], mode: .full)
        guard let status = NTAG424TagTamperStatus(data) else {
            throw NFCReaderError(.tagResponseError, "GetTTStatus answered \(data.count) bytes that are no status")
        }
        return status
    }

    /// Whether the tag has TagTamper (its GetVersion HWSubType is x8h, NT4H2421Tx Table 34): one
    /// GetVersion, three frames.
    public func hasTagTamper() async throws(NFCReaderError) -> Bool {
        let version = try await version()
        return version.count > 2 && version[2] & 0x0F == 0x08
    }

    /// SetConfiguration (5Ch) option 07h in CommMode Full, in a session with key 0: TagTamper
    /// enabled, for good (TTConfig bit 0), GetTTStatus's access right `statusKey` (TTStatusKey;
    /// free by default). From then on the loop is sampled, and an open loop latches the
    /// permanent status open.
    ///
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` without a session with key 0; the
    ///   errors of the command.
    public func enableTagTamper(statusKey: NTAG424Access = .free) async throws(NFCReaderError) {
        guard let channel = session, channel.keyNumber == 0 else {
            throw NFCReaderError(.invalidParameter, "enabling TagTamper needs a session with key 0")
        }
        _ = try await command(0x5C, header: [0x07], data: [0x01, statusKey.nibble], mode: .full, responseMode: .mac)
    }
}
