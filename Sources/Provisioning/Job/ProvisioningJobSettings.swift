import NFCSession

/// How a job provisions each tag and how long its readers wait.
public struct ProvisioningJobSettings: Sendable {
    /// Whether each tag is made read-only for good after its verified write. The caller
    /// confirms this once for the job (``ProvisioningLockConfirmation``) before running it.
    public var locks: Bool
    /// The password each tag gets, or nil.
    public var password: ProvisioningPasswordPlan?
    /// How long a reader waits for its next tag before it stops; nil: until the job ends or
    /// is stopped.
    public var tagWait: Duration?
    /// How often a waiting reader checks whether the job ended or was stopped.
    public var checkInterval: Duration
    /// How the readers' sessions poll.
    public var sessionOptions: NFCTagReaderSession.Options

    /// Settings: no lock, no password, waiting for tags until the job ends.
    public init(
        locks: Bool = false, password: ProvisioningPasswordPlan? = nil, tagWait: Duration? = nil,
        checkInterval: Duration = .milliseconds(200),
        sessionOptions: NFCTagReaderSession.Options = NFCTagReaderSession.Options()
    ) {
        self.locks = locks
        self.password = password
        self.tagWait = tagWait
        self.checkInterval = checkInterval
        self.sessionOptions = sessionOptions
    }

    /// The options a journal header records for these settings (never a secret).
    public var journalOptions: [String: String] {
        var options = ["lock": locks ? "yes" : "no"]
        if let password {
            options.merge(password.journalOptions) { first, _ in first }
        } else {
            options["password"] = "none"
        }
        return options
    }
}
