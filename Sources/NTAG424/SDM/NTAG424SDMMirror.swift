import NFCCrypto

/// What an NTAG 424 DNA puts into its NDEF file when it is read in plain with SDM on (NT4H2421Gx
/// datasheet 9.3.2-9.3.6; AN12196 4): the UID and SDMReadCtr in plain or encrypted as PICCData,
/// the encrypted file data, and the SDMMAC, each as upper-case ASCII hex at its offset. Used by
/// the simulator, and by tests as the reference a reader's result is checked against.
public struct NTAG424SDMMirror: Sendable {
    /// The file's SDM settings.
    public let settings: NTAG424FileSettings.SDM
    /// The tag's keys 0-4 (16 bytes each).
    private let keys: [[UInt8]]
    /// The tag's cipher: AES, or LRP (NT4H2421Gx 9.3.4, 9.3.9.2).
    public let mode: NTAG424CryptoMode

    /// A mirror for `settings` with the tag's `keys`, for a tag in `mode`.
    public init(settings: NTAG424FileSettings.SDM, keys: [[UInt8]], mode: NTAG424CryptoMode = .aes) {
        self.settings = settings
        self.keys = keys
        self.mode = mode
    }

    /// `file` as a plain read returns it for the tag `uid` whose counter is now `counter`;
    /// `padding` gives the tag's random bytes: what PICCData is padded with (5 or more) and, in
    /// LRP, PICCRand before them (8 more); `tagTamper`, the TagTamper status an NTAG 424 DNA TT
    /// mirrors at TTStatusOffset as its two bytes (before the file data is encrypted, so a
    /// status in its plaintext half is encrypted with it).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidSettings`` when an offset lies outside the file or a
    ///   key number is not 0-4.
    public func read(
        file: [UInt8], uid: [UInt8], counter: Int, padding: [UInt8],
        tagTamper: NTAG424TagTamperStatus = .notEnabled
    ) throws(NTAG424Error) -> [UInt8] {
        var out = file
        func put(_ text: [UInt8], at offset: Int?) throws(NTAG424Error) {
            guard let offset, offset >= 0, offset + text.count <= out.count else {
                throw NTAG424Error(.invalidSettings, "a mirror runs past the file")
            }
            out.replaceSubrange(offset..<(offset + text.count), with: text)
        }
        let counterBytes = NTAG424Bytes.littleEndian(counter, count: 3)
        switch settings.metaRead {
        case .free:
            if settings.mirrorsUID { try put(Self.ascii(uid), at: settings.uidOffset) }
            if settings.mirrorsReadCounter {
                try put(Self.ascii(counterBytes.reversed()), at: settings.readCounterOffset)
            }
        case .key(let number):
            var plain: [UInt8] = [
                (settings.mirrorsUID ? 0x80 : 0) | (settings.mirrorsReadCounter ? 0x40 : 0)
                    | (settings.mirrorsUID ? 0x07 : 0)
            ]
            if settings.mirrorsUID { plain += uid }
            if settings.mirrorsReadCounter { plain += counterBytes }
            var random = padding[...]
            var piccRand: [UInt8] = []
            if mode == .lrp {
                piccRand = Array(random.prefix(8)) + [UInt8](repeating: 0, count: max(0, 8 - random.count))
                random = random.dropFirst(8)
            }
            plain += random.prefix(16 - plain.count)
            while plain.count < 16 { plain.append(0) }
            let encrypted =
                switch mode {
                case .aes: try NTAG424Authentication.crypt(plain, key: try key(number), encrypting: true)
                case .lrp:
                    piccRand
                        + (try NTAG424LRP(key: try key(number)).encrypt(plain, counter: piccRand, padding: false)
                            .ciphertext)
                }
            try put(Self.ascii(encrypted), at: settings.piccDataOffset)
        case .never: break
        }
        if settings.mirrorsTagTamper { try put(tagTamper.bytes, at: settings.tagTamperOffset) }
        guard case .key(let fileRead) = settings.fileRead, let macOffset = settings.macOffset,
            let inputOffset = settings.macInputOffset
        else { return out }
        let verifier = try NTAG424SUNVerifier(metaReadKey: nil, fileReadKey: try key(fileRead))
        let mirroredUID = settings.mirrorsUID ? uid : nil
        let mirroredCounter = settings.mirrorsReadCounter ? counter : nil
        if settings.encryptsFileData, let start = settings.encryptedDataOffset,
            let length = settings.encryptedDataLength,
            start + length <= out.count
        {
            // The placeholder's ASCII characters are the plaintext (length / 2 bytes), encrypted
            // with the SDM ENC session key, IV = E(key, SDMReadCtr || 13 zero bytes).
            let plain = Array(out[start..<(start + length / 2)])
            let encrypted: [UInt8]
            if mode == .lrp {
                let sessionKey = try verifier.lrpSessionKeys(uid: mirroredUID, counter: mirroredCounter).encryption
                encrypted =
                    try sessionKey.encrypt(
                        plain, counter: NTAG424SUNVerifier.lrpFileDataCounter(counter), padding: false
                    ).ciphertext
            } else {
                let sessionKey = try verifier.sessionKeys(uid: mirroredUID, counter: mirroredCounter).encryption
                do {
                    let cipher = try AES(key: sessionKey)
                    let iv = try cipher.encrypt(counterBytes + [UInt8](repeating: 0, count: 13))
                    encrypted = try cipher.encrypt(plain, iv: iv)
                } catch {
                    throw NTAG424Error(error)
                }
            }
            try put(Self.ascii(encrypted), at: start)
        }
        guard inputOffset <= macOffset, macOffset <= out.count else {
            throw NTAG424Error(.invalidSettings, "SDMMACInputOffset lies after SDMMACOffset")
        }
        let mac = try verifier.mac(
            uid: mirroredUID, counter: mirroredCounter, input: Array(out[inputOffset..<macOffset]), mode: mode)
        try put(Self.ascii(mac), at: macOffset)
        return out
    }

    private func key(_ number: Int) throws(NTAG424Error) -> [UInt8] {
        guard keys.indices.contains(number) else {
            throw NTAG424Error(.invalidSettings, "key \(number) does not exist (keys 0-4)")
        }
        return keys[number]
    }

    /// `bytes` as upper-case ASCII hex.
    public static func ascii(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        return bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }
    }
}
