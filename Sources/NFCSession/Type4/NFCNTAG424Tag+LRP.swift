import NTAG424

/// Switching an NTAG 424 DNA to LRP secure messaging (NT4H2421Gx datasheet 9.2, 10.5.1; AN12343
/// 7.2.5.1): SetConfiguration option 05h with PDCap2.1 = 02h, for good. From then on the tag
/// takes AuthenticateLRPFirst only, and SDM encrypts and MACs with LRP (``NTAG424/NTAG424LRP``).
extension NFCNTAG424Tag {
    /// SetConfiguration option 05h's data: 4 RFU bytes, PDCap2.1 = 02h (LRP), 3 RFU bytes,
    /// PDCap2.5 and PDCap2.6 (00h: no user-defined capabilities).
    public static let lrpCapabilities: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00]

    /// SetConfiguration (5Ch) option 05h in CommMode Full, in an AES session with key 0: the tag
    /// speaks LRP from now on and for good. Its answer carries no MAC (the session's mode is
    /// gone): the session ends, and the caller proves the switch by authenticating again, which
    /// the tag then answers in LRP.
    ///
    /// Nothing undoes it; ``NFCSession/NFCNTAG424Tag/setUpSDM(_:from:confirmation:progress:)``
    /// takes it only for a plan in LRP, confirmed like every set-up.
    ///
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` without an AES session with key 0; the
    ///   errors of the command (91 AE: the session is not key 0's).
    public func switchToLRP() async throws(NFCReaderError) {
        guard var channel = session, channel.keyNumber == 0, channel.mode == .aes else {
            throw NFCReaderError(
                .invalidParameter, "switching to LRP needs an AES session with key 0 (AuthenticateEV2First)")
        }
        let body: [UInt8]
        do {
            body = try channel.protectCommand(0x5C, header: [0x05], data: Self.lrpCapabilities, mode: .full)
        } catch {
            throw NFCReaderError(.invalidParameter, "SetConfiguration: \(error.reason)")
        }
        endSession()
        let answer = try await native(0x5C, [0x05] + body)
        guard answer.status == 0x00 else { throw Self.error(answer.status, during: "SetConfiguration (LRP)") }
        setMode(.lrp)
    }
}
