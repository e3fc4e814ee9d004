import HexText

/// A URL an NTAG 424 DNA produced, taken apart for ``NTAG424SUNVerifier``: the PICCData (or the
/// plain UID and counter) and the SDMMAC from their query parameters, and the MAC inputs the
/// tag may have used.
///
/// The tag MACs the file's bytes from SDMMACInputOffset up to SDMMACOffset (NT4H2421Gx 9.3.7).
/// In a URL that input is either empty (the two offsets equal, AN12196's first example) or the
/// text from the start of one parameter's value up to the MAC value (AN12196's example with
/// encrypted file data: `CEE9…8962&cmac=`). Each of those is a candidate; only the key holder
/// can make a MAC that verifies over any of them, so trying each is as strict as knowing the
/// layout.
public struct NTAG424SUNURL: Sendable, Hashable {
    /// The query parameter names.
    public struct Parameters: Sendable, Hashable {
        /// The encrypted PICCData (`picc_data`).
        public var piccData: String
        /// The SDMMAC (`cmac`).
        public var mac: String
        /// The plain UID (`uid`), for tags that mirror it in plain.
        public var uid: String
        /// The plain counter (`ctr`), 6 hex digits, most significant first.
        public var counter: String
        /// The encrypted file data, SDMENCFileData (`enc`, NT4H2421Gx 9.3.6).
        public var encryptedFileData: String = "enc"

        /// Names; the defaults are the ones NXP's examples and `ndeftool sdm setup` use.
        public init(piccData: String = "picc_data", mac: String = "cmac", uid: String = "uid", counter: String = "ctr")
        {
            self.piccData = piccData
            self.mac = mac
            self.uid = uid
            self.counter = counter
        }
    }

    /// The encrypted PICCData, when the URL carries it: 16 bytes from a tag in AES mode, 24 in LRP.
    public var piccData: [UInt8]?
    /// SDMENCFileData, the encrypted file data (whole AES blocks), when the URL carries it.
    public var encryptedFileData: [UInt8]?
    /// The plain UID, when the URL carries it.
    public var uid: [UInt8]?
    /// The plain counter, when the URL carries it.
    public var counter: Int?
    /// The SDMMAC.
    public var mac: [UInt8]
    /// The MAC inputs to try, named.
    public var macInputs: [(name: String, bytes: [UInt8])]

    /// Takes `url` apart.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` naming what is missing or not hex: no MAC
    ///   parameter, neither PICCData nor a plain UID or counter, a value of the wrong length, or
    ///   one of those parameters given twice.
    public init(_ url: String, parameters: Parameters = Parameters()) throws(NTAG424Error) {
        let text = Array(url.utf8)
        guard let query = text.firstIndex(of: UInt8(ascii: "?")) else {
            throw NTAG424Error(.invalidInput, "the URL has no query (…?\(parameters.piccData)=…&\(parameters.mac)=…)")
        }
        // Each parameter: name, and where its value starts and ends in the URL's bytes.
        var fields: [(name: String, value: Range<Int>)] = []
        var start = query + 1
        while start <= text.count {
            let end = text[start...].firstIndex(of: UInt8(ascii: "&")) ?? text.count
            let pair = start..<end
            if let equals = text[pair].firstIndex(of: UInt8(ascii: "=")) {
                fields.append((String(decoding: text[start..<equals], as: UTF8.self), (equals + 1)..<end))
            }
            start = end + 1
        }
        // A parameter the verdict depends on must appear once: with two, a server that reads the
        // last one would see other data than the one verified here.
        for name in [
            parameters.mac, parameters.piccData, parameters.uid, parameters.counter, parameters.encryptedFileData,
        ]
        where fields.filter({ $0.name == name }).count > 1 {
            throw NTAG424Error(.invalidInput, "the URL has \(name)= more than once: a verifier must see one value")
        }
        func value(_ name: String) -> (text: String, range: Range<Int>)? {
            fields.first { $0.name == name }.map { (String(decoding: text[$0.value], as: UTF8.self), $0.value) }
        }
        func hexValue(_ name: String, count: Int) throws(NTAG424Error) -> [UInt8]? {
            guard let found = value(name) else { return nil }
            guard let bytes = Hex.decodeDigits(found.text), bytes.count == count else {
                throw NTAG424Error(
                    .invalidInput, "\(name) must be \(count * 2) hex characters, not \"\(found.text.prefix(80))\"")
            }
            return bytes
        }
        guard let macField = value(parameters.mac) else {
            throw NTAG424Error(.invalidInput, "the URL has no \(parameters.mac)= parameter (the SDMMAC)")
        }
        guard let mac = Hex.decodeDigits(macField.text), mac.count == 8 else {
            throw NTAG424Error(
                .invalidInput, "\(parameters.mac) must be 16 hex characters, not \"\(macField.text.prefix(80))\"")
        }
        self.mac = mac
        if let found = value(parameters.piccData) {
            guard let bytes = Hex.decodeDigits(found.text),
                NTAG424SUNVerifier.mode(ofPICCDataLength: bytes.count) != nil
            else {
                throw NTAG424Error(
                    .invalidInput,
                    "\(parameters.piccData) must be 32 hex characters (AES) or 48 (LRP), not \"\(found.text.prefix(80))\""
                )
            }
            piccData = bytes
        }
        uid = try hexValue(parameters.uid, count: 7)
        if let counterBytes = try hexValue(parameters.counter, count: 3) {
            counter = counterBytes.reduce(0) { $0 << 8 | Int($1) }
        }
        if let found = value(parameters.encryptedFileData) {
            guard let bytes = Hex.decodeDigits(found.text), !bytes.isEmpty, bytes.count % 16 == 0 else {
                throw NTAG424Error(
                    .invalidInput,
                    "\(parameters.encryptedFileData) must be whole AES blocks (32, 64, ... hex characters), not "
                        + "\"\(found.text.prefix(80))\"")
            }
            encryptedFileData = bytes
        }
        guard piccData != nil || uid != nil || counter != nil else {
            throw NTAG424Error(
                .invalidInput,
                "the URL has neither \(parameters.piccData)= (encrypted PICCData) nor \(parameters.uid)= or "
                    + "\(parameters.counter)= (plain mirror)")
        }
        var inputs: [(name: String, bytes: [UInt8])] = [("empty", [])]
        for field in fields where field.value.lowerBound < macField.range.lowerBound {
            inputs.append(("from \(field.name)", Array(text[field.value.lowerBound..<macField.range.lowerBound])))
        }
        macInputs = inputs
    }

    /// Checks the URL with `verifier`.
    public func verify(with verifier: NTAG424SUNVerifier) -> NTAG424SUNResult {
        let result =
            if let piccData {
                verifier.verify(piccData: piccData, mac: mac, inputs: macInputs)
            } else {
                verifier.verify(uid: uid, counter: counter, mac: mac, inputs: macInputs)
            }
        return withFileData(result, verifier: verifier)
    }

    /// `result` with the file data decrypted (``NTAG424SUNResult/fileData``) when the URL
    /// carries SDMENCFileData and its SDMMAC verified (whose input covers it): data that fails
    /// the MAC is not decrypted.
    public func withFileData(_ result: NTAG424SUNResult, verifier: NTAG424SUNVerifier) -> NTAG424SUNResult {
        guard result.isValid, let encryptedFileData else { return result }
        var result = result
        do {
            result.fileData = try verifier.decryptFileData(
                encryptedFileData, uid: result.uid, counter: result.counter, mode: result.mode ?? .aes)
        } catch {
            result.isValid = false
            result.problem = "the encrypted file data does not decrypt: \(error.reason)"
        }
        return result
    }

    public static func == (lhs: NTAG424SUNURL, rhs: NTAG424SUNURL) -> Bool {
        lhs.piccData == rhs.piccData && lhs.uid == rhs.uid && lhs.counter == rhs.counter && lhs.mac == rhs.mac
            && lhs.macInputs.map(\.bytes) == rhs.macInputs.map(\.bytes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(piccData)
        hasher.combine(uid)
        hasher.combine(counter)
        hasher.combine(mac)
    }
}
