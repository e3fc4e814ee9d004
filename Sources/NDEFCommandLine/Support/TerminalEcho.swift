import SystemSupport

/// Reading a secret from a terminal without showing it: echo off through termios (POSIX.1-2017,
/// General Terminal Interface, 11.2) for the time of one read, then the terminal as it was.
///
/// The terminal is restored on every path: after the read, and when SIGINT, SIGTERM, SIGHUP or
/// SIGQUIT (Ctrl-C, Ctrl-\) arrive during it; the signal's handler restores the saved settings,
/// puts the default action back and raises the signal again, so the process still ends as the
/// signal says (status 130 for Ctrl-C).
enum TerminalEcho {
    /// The signals that could end the process while echo is off.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Runs `body` with echo off on terminal `descriptor`; nil without running it when the
    /// descriptor is not a terminal whose settings can be changed.
    static func withoutEcho<Result>(descriptor: Int32, _ body: () -> Result) -> Result? {
        var original = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &original) == 0 else { return nil }
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ECHO)
        savedDescriptor = descriptor
        savedSettings = original
        var previous: [sigaction] = []
        for number in signals {
            var action = sigaction()
            var old = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = restoreAndRaise
            #else
                action.sa_handler = restoreAndRaise
            #endif
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, &old)
            previous.append(old)
        }
        defer {
            _ = tcsetattr(descriptor, TCSAFLUSH, &original)
            for (number, old) in zip(signals, previous) {
                var action = old
                sigaction(number, &action, nil)
            }
        }
        guard tcsetattr(descriptor, TCSAFLUSH, &quiet) == 0 else { return nil }
        return body()
    }
}

// Read by the signal handler, which may use only async-signal-safe calls (tcsetattr, signal,
// raise) and no locks: written before the handler is installed, while no handler can run.
nonisolated(unsafe) private var savedDescriptor: Int32 = 0
nonisolated(unsafe) private var savedSettings = termios()

/// Restores the terminal, then lets `number` do what it does by default.
private func restoreAndRaise(_ number: Int32) {
    _ = tcsetattr(savedDescriptor, TCSANOW, &savedSettings)
    signal(number, SIG_DFL)
    raise(number)
}
