internal import CLibNFC
import NFCSession
import SystemSupport

/// libnfc's devices: listing them and opening one, with advice when there is none.
public enum LibNFCDevices {
    /// The most devices one listing returns.
    public static let maximumDevices = 16

    /// The connection strings of the devices libnfc knows (`nfc_list_devices`): those set by
    /// `LIBNFC_DEVICE` or `LIBNFC_DEFAULT_DEVICE`, by `/etc/nfc/libnfc.conf` and
    /// `/etc/nfc/devices.d/*.conf`, then those its scan finds unless `LIBNFC_AUTO_SCAN` (or
    /// `allow_autoscan`) turns the scan off. The scan looks at USB only (ACR122, PN533): serial
    /// boards are found only through an intrusive scan (`LIBNFC_INTRUSIVE_SCAN`), which can
    /// disturb other serial devices. Nothing is opened but optional configured devices, which
    /// libnfc probes. An empty connection string (`LIBNFC_DEVICE=`) is left out.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when libnfc cannot start.
    public static func connstrings() async throws(NFCReaderError) -> [String] {
        let executor = SerialQueueExecutor(label: "ndeftool.libnfc.list")
        do {
            return try await executor.run { () throws(LibNFCError) -> [String] in try listBlocking() }
        } catch {
            throw error.readerError
        }
    }

    /// Opens the device `url` names: a connection string directly, `libnfc:` or an index from
    /// ``connstrings()``.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when there is no such
    ///   device or libnfc cannot open it; the message says what to check.
    public static func open(_ url: LibNFCReaderURL) async throws(NFCReaderError) -> LibNFCReaderDevice {
        let connstring: String
        switch url.selector {
        case .connstring(let given):
            connstring = given
        case .first:
            guard let first = try await connstrings().first else { throw noDevice() }
            connstring = first
        case .index(let index):
            let all = try await connstrings()
            guard !all.isEmpty else { throw noDevice() }
            guard all.indices.contains(index) else {
                let list = all.enumerated().map { "\($0.offset): \($0.element)" }.joined(separator: "; ")
                throw NFCReaderError(.readerUnavailable, "there is no libnfc device \(index); libnfc lists \(list)")
            }
            connstring = all[index]
        }
        return try await LibNFCReaderDevice.open(connstring: connstring)
    }

    /// Opens the device a `libnfc:` URL names (see ``LibNFCReaderURL``).
    public static func open(url text: String) async throws(NFCReaderError) -> LibNFCReaderDevice {
        try await open(try LibNFCReaderURL(parsing: text))
    }

    /// libnfc's version, `1.8.0`.
    public static var libraryVersion: String { LibNFCLibrary.version }

    // MARK: - Advice

    /// Where a serial board is named for libnfc, and the usual trap with an ACR122U.
    public static let setupHint =
        "Serial boards (a PN532 on a UART) are never found by libnfc's scan: name the board "
        + "(libnfc:pn532_uart:/dev/ttyUSB0), or set LIBNFC_DEVICE=pn532_uart:/dev/ttyUSB0, or add the lines "
        + "device.name = \"PN532\" and device.connstring = \"pn532_uart:/dev/ttyUSB0\" to /etc/nfc/libnfc.conf "
        + "or to a .conf file in /etc/nfc/devices.d/ (libnfc 1.8 reads no file in the home folder). "
        + "An ACR122U is usually held by pcscd, which keeps libnfc from opening it: use it as a PC/SC reader "
        + "(pcsc:) instead, or stop pcscd"

    /// The error when libnfc lists no device: why, and what to do (``setupHint``).
    static func noDevice() -> NFCReaderError {
        var reason = "libnfc found no device"
        if let scan = environment("LIBNFC_AUTO_SCAN"), ["0", "no", "false"].contains(scan) {
            reason += " (LIBNFC_AUTO_SCAN=\(scan) turns its USB scan off)"
        }
        return NFCReaderError(.readerUnavailable, reason + ". " + setupHint)
    }

    /// The error when `nfc_open` refused `connstring` (libnfc gives no reason): what the port
    /// looks like, then what to check.
    static func openFailure(_ connstring: String) -> NFCReaderError {
        let driver = LibNFCReaderURL.driver(of: connstring)
        var reason = "libnfc could not open the device \(connstring)"
        if LibNFCReaderURL.portDrivers.contains(driver) {
            let port = String(connstring.dropFirst(driver.count + 1).prefix { $0 != ":" })
            reason += ": " + portAdvice(port, driver: driver)
        } else {
            reason +=
                ": no such USB device, or no permission to use it (a udev rule for the reader, or run as root to "
                + "check); a reader claimed by the kernel's pn533 driver or held by pcscd cannot be opened"
        }
        return NFCReaderError(.readerUnavailable, reason + ". " + setupHint)
    }

    /// What is wrong with the serial port `port`, as far as the file system tells.
    static func portAdvice(_ port: String, driver: String) -> String {
        if access(port, F_OK) != 0 {
            return "there is no port \(port) (`ls /dev/ttyUSB* /dev/ttyACM* /dev/serial/by-id/` lists serial ports)"
        }
        if access(port, R_OK | W_OK) != 0 {
            return "no permission to use \(port): add the user to its group (`sudo usermod -aG dialout $USER`, "
                + "then log in again)"
        }
        return "nothing answered as a PN532 on \(port): check the wiring and the board's interface switch (HSU), "
            + "the speed (\(driver):\(port):115200 is libnfc's default), and that no other program holds the port"
    }

    // MARK: - libnfc

    /// `nfc_list_devices` under the library lock.
    static func listBlocking() throws(LibNFCError) -> [String] {
        let size = MemoryLayout<nfc_connstring>.size
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size * maximumDevices, alignment: 1)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        let count = try LibNFCLibrary.withContext { context in
            let strings = buffer.baseAddress?.assumingMemoryBound(to: nfc_connstring.self)
            return nfc_list_devices(context, strings, maximumDevices)
        }
        // An empty LIBNFC_DEVICE is listed as a device with an empty connection string: none.
        return (0..<min(count, maximumDevices)).map { index in
            let bytes = buffer[(index * size)..<((index + 1) * size)]
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }.filter { !$0.isEmpty }
    }

    /// The environment variable `name`, read without changing the environment.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
