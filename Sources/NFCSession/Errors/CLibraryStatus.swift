/// What the package knows of one result code of a C library a reader backend calls (pcsc-lite's
/// `SCARD_*`, libnfc's `NFC_E*`): its macro name, the session error it becomes and what it means
/// for people. The backends' status-code types keep a table of these. Shared by the modules of
/// this package (`package` access), not API.
package struct CLibraryStatus: Sendable {
    /// The macro name, `SCARD_E_NO_SERVICE`.
    package let name: String
    /// The session error code the result becomes.
    package let readerErrorCode: NFCReaderError.Code
    /// What happened, for people.
    package let meaning: String

    package init(_ name: String, _ readerErrorCode: NFCReaderError.Code, _ meaning: String) {
        self.name = name
        self.readerErrorCode = readerErrorCode
        self.meaning = meaning
    }
}
