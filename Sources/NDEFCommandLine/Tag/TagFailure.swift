import NFCSession

/// Turns the errors of readers, sessions and tag plans into the failures the command line
/// reports: the one place where ``NFCSession/NFCReaderError`` codes become exit statuses.
enum TagFailure {
    /// The exit status for an error `code`.
    ///
    /// A write error that may have left the tag half-written is ``ExitStatus/incompleteWrite``
    /// whatever its code (see ``error(_:while:resume:)``).
    static func status(for code: NFCReaderError.Code) -> ExitStatus {
        switch code {
        case .readerUnavailable, .unsupportedFeature: .unavailable
        case .invalidParameter: .usage
        case .timeout, .tagConnectionLost: .tryAgain
        case .multipleTagsFound: .severalTags
        case .cancelled: .interrupted
        case .tagNotSupported, .tagResponseError, .invalidMessage: .tagError
        case .tagNotWritable: .notPermitted
        case .authenticationRequired, .authenticationFailed, .passwordDisabled, .passwordAcknowledgeMismatch:
            .authenticationFailed
        case .tagSizeTooSmall: .tooLarge
        case .tagUpdateFailure: .incompleteWrite
        case .zeroLengthMessage, .invalidTagFile: .dataError
        case .tagFolderMissing: .noInput
        case .confirmationMismatch: .confirmationMismatch
        // Every code has its line above (TagSupportTests checks each); a code added later is a tag error.
        default: .tagError
        }
    }

    /// The failure for `error`, met while doing `activity` (`writing the message`).
    ///
    /// - Parameters:
    ///   - resume: what to run to complete an interrupted change (shown when the error says the
    ///     tag may be half-written); nil for the default advice.
    ///   - locking: whether the activity is a lock, whose read-only refusal needs no hint.
    static func error(
        _ error: NFCReaderError, while activity: String, resume: String? = nil, locking: Bool = false
    ) -> CommandLineError {
        var message = "\(activity): \(error.reason) (\(error.code.rawValue))"
        if error.mayBeHalfWritten || error.code == .tagUpdateFailure {
            message += "\nThe tag may be half-written."
            message +=
                resume.map { " To complete the change, hold the tag to the reader again and run:\n  \($0)" }
                ?? " Hold it to the reader again and repeat the command."
            return CommandLineError(.incompleteWrite, message)
        }
        if let hint = hint(for: error.code), !(error.code == .tagNotWritable && locking) {
            message += "\n" + hint
        }
        return CommandLineError(status(for: error.code), message)
    }

    /// Advice for a person, by error code.
    static func hint(for code: NFCReaderError.Code) -> String? {
        switch code {
        case .tagNotSupported: "A blank or wiped tag is initialised with 'ndeftool format'."
        case .timeout: "Nothing was changed. Hold the tag to the reader and try again (or wait longer: --wait)."
        case .multipleTagsFound: "Nothing was changed. Keep one tag at the reader and try again."
        case .tagConnectionLost: "Nothing was changed. Hold the tag still at the reader and try again."
        case .authenticationRequired:
            "The pages needed are password-protected. " + TagPasswordOptions.advice
        case .authenticationFailed:
            "Each password or key was tried once, never again (tags count wrong password attempts)."
        case .tagSizeTooSmall:
            "Nothing was written. Shorten the message (a shorter URL, fewer records) or use a larger tag "
                + "(NTAG213: 137 bytes, NTAG215: 492, NTAG216: 868)."
        case .tagNotWritable: "Nothing was written. 'ndeftool info' shows what makes the tag read-only."
        case .confirmationMismatch:
            "Nothing was written. 'ndeftool lock --dry-run' shows the code of the tag as it is now."
        default: nil
        }
    }
}
