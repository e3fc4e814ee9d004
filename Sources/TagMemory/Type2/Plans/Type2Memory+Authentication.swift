extension Type2Memory {
    /// The first page whose WRITE needs authentication, or nil when no page does (or the
    /// image does not show the setting).
    ///
    /// - NTAG21x and MIFARE Ultralight EV1: AUTH0 (CFG0 byte 3) when below the page count;
    ///   PWD_AUTH opens the pages (datasheet NTAG213/215/216 8.8.1, MF0ULX1 8.6).
    /// - MIFARE Ultralight C: AUTH0 (page 2Ah byte 0) when below 30h; 3DES AUTHENTICATE
    ///   opens them, for writing whatever AUTH1 says (MF0ICU2 7.5.8).
    public var firstWriteProtectedPage: Int? {
        if let configuration { return configuration.firstProtectedPage }
        guard let chip, let pages = chip.tripleDESPages, let auth0 = page(pages.auth0)?.first else { return nil }
        return Int(auth0) < chip.pageCount ? Int(auth0) : nil
    }
}
