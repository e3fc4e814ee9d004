import SystemSupport

/// The socket pcsc-lite's client library talks to pcscd through: `$PCSCLITE_CSOCK_NAME`, else
/// `/run/pcscd/pcscd.comm` (pcsc-lite's `PCSCLITE_CSOCK_NAME` default on Debian).
enum PCSCDaemonSocket {
    /// The socket's path.
    static var path: String {
        if let variable = getenv("PCSCLITE_CSOCK_NAME") {
            let text = String(cString: variable)
            if !text.isEmpty { return text }
        }
        return "/run/pcscd/pcscd.comm"
    }

    /// Whether something accepts connections on the socket now: false when the file is missing
    /// or the connection is refused (no pcscd listening); true when one was accepted (closed at
    /// once) or when the answer is unclear (another error), so that only a certain absence is
    /// reported as "pcscd is not running".
    static func isAccepting() -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return true }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
            buffer[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result == 0 { return true }
        return !(errno == ENOENT || errno == ECONNREFUSED)
    }
}
