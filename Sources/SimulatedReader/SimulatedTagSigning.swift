import NFCCrypto
import NFCSession
import SystemSupport
import TagSimulator

/// The READ_SIG answer a `sim:` URL gives its Type 2 tags and the Read_Sig answer of its NTAG 424
/// DNA tags: `signature=HEX` as it is, or the ECDSA signature of each tag's UID under the private
/// key of `signing-key=FILE` (NTAG213/215/216 datasheet 10.8: secp128r1, r ‖ s, the UID as the
/// digest; NT4H2421Gx 10.10.1 and AN12196 7: secp224r1, 56 bytes). Without either, a tag keeps
/// its file's signature, and a new tag answers zero bytes.
struct SimulatedTagSigning: Sendable {
    /// The signature every tag gets.
    var signature: [UInt8]?
    /// The key that signs each tag's UID.
    var key: ECDSAPrivateKey?
    /// Whether each MIFARE Classic card answers the Gen1a backdoor (`gen1a=1`), the other
    /// property a URL gives every tag beyond its memory.
    var gen1a = false
    /// Whether each NTAG 424 DNA speaks LRP (`mode=lrp`).
    var lrpMode = false
    /// Whether each NTAG 424 DNA is a TT, with its loop (`sim:ntag424tt?tamper=`).
    var tagTamper: SimulatedReaderURL.TagTamperSetting?

    /// The largest key file read.
    static let maximumKeyFileBytes = 64 * 1024

    /// The signing `url` asks for; the key file is read off the cooperative pool.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for a key file that cannot
    ///   be read, holds no private key, or a key on another curve than secp128r1.
    static func make(_ url: SimulatedReaderURL, readerName: String) async throws(NFCReaderError) -> SimulatedTagSigning
    {
        guard let path = url.signingKeyPath else {
            return SimulatedTagSigning(
                signature: url.signature, gen1a: url.gen1a, lrpMode: url.lrpMode, tagTamper: url.tagTamper)
        }
        let read = await BlockingCall.run {
            FileContents.read(path: path, limit: maximumKeyFileBytes)
        }
        let bytes: [UInt8]
        switch read {
        case .success(let contents): bytes = contents
        case .failure(let failure):
            throw SimulatedReaderURL.error(readerName, "signing-key \(path) cannot be read: \(failure)")
        }
        let key: ECDSAPrivateKey
        do {
            key = try ECDSAPrivateKey(pem: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw SimulatedReaderURL.error(readerName, "signing-key \(path): \(error.reason)")
        }
        var curve = "secp128r1"
        if case .type4(let settings) = url.tagKind, settings.isNTAG424 { curve = "secp224r1" }
        guard key.curveName == curve else {
            throw SimulatedReaderURL.error(
                readerName, "signing-key \(path) is a key on \(key.curveName): this chip's signatures use \(curve)")
        }
        return SimulatedTagSigning(key: key, gen1a: url.gen1a, lrpMode: url.lrpMode, tagTamper: url.tagTamper)
    }

    /// `tag` with its READ_SIG (Read_Sig) answer as the URL asks (Type 4 tags but NTAG 424 DNA
    /// have none).
    func apply(to tag: SimulatedTag, readerName: String) throws(NFCReaderError) -> SimulatedTag {
        if case .type4(var type4) = tag, type4.ntag424 != nil {
            if lrpMode { type4 = type4.inLRPMode() }
            if let tagTamper { type4 = type4.withTagTamper(loopOpen: tagTamper.loopOpen) }
            if let signature { return .type4(type4.signed(signature)) }
            guard let key else { return .type4(type4) }
            do {
                return .type4(type4.signed(try key.signature(for: type4.uid)))
            } catch {
                throw SimulatedReaderURL.error(readerName, "signing the UID: \(error.reason)")
            }
        }
        if case .classic(var card) = tag {
            card.answersGen1aBackdoor = gen1a
            return .classic(card)
        }
        guard case .type2(let type2) = tag else { return tag }
        if let signature { return .type2(type2.signed(signature)) }
        guard let key else { return tag }
        do {
            return .type2(type2.signed(try key.signature(for: type2.uid)))
        } catch {
            throw SimulatedReaderURL.error(readerName, "signing the UID: \(error.reason)")
        }
    }
}
