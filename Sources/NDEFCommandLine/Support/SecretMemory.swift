import CProcessControl
import CommandLineKit

/// What the process does once it holds a password or a master secret.
///
/// It marks itself not dumpable (`prctl(PR_SET_DUMPABLE, 0)`, proc(5) and prctl(2)): no core
/// file is written if it crashes, and other processes of the same user cannot attach to it or
/// read its memory through `/proc/PID/mem`. The flag stays for the rest of the process, which
/// ends with the command. And the bytes it read a secret from are overwritten with zeros once
/// the secret has been taken from them (``clear(_:)``). Swift arrays may have been copied
/// before that, so clearing is a best effort; the dumpable flag is what keeps a crash from
/// writing the secret to disk.
enum SecretMemory {
    /// Marks the process not dumpable; whether it is now (PR_GET_DUMPABLE answers 0). With `-v`
    /// the first call says so on standard error.
    @discardableResult
    static func keepOutOfCoreDumps(_ invocation: CommandInvocation) -> Bool {
        let already = isKeptOutOfCoreDumps
        _ = process_control_set_dumpable(0)
        let done = isKeptOutOfCoreDumps
        if !already, invocation.values.flag("verbose") {
            invocation.io.writeError(
                done
                    ? "The process holds a secret: it is kept out of core dumps (PR_SET_DUMPABLE 0).\n"
                    : "The process holds a secret, but could not be kept out of core dumps.\n")
        }
        return done
    }

    /// Whether the process is marked not dumpable.
    static var isKeptOutOfCoreDumps: Bool { process_control_dumpable() == 0 }

    /// Overwrites `bytes` with zeros and empties it.
    static func clear(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
        bytes.removeAll()
    }
}
