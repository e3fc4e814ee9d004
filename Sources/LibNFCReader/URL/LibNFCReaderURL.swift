import NFCSession

/// A libnfc device named as a URL: `libnfc:` (the first device libnfc lists), `libnfc:INDEX`
/// (the device at that position of the list), or `libnfc:CONNSTRING`, a libnfc connection string
/// opened directly, without a scan: `libnfc:pn532_uart:/dev/ttyUSB0`,
/// `libnfc:pn532_uart:/dev/ttyAMA0:115200`, `libnfc:pn53x_usb`, `libnfc:acr122_usb:001:004`.
///
/// A connection string is `DRIVER[:PORT[:SPEED]]` (libnfc's `connstring_decode`): the driver is
/// one of ``drivers``, or `usb` for any USB driver; serial, SPI and I2C drivers need the port.
/// The scheme is matched case-insensitively, the connection string is kept as given (it holds
/// file names).
public struct LibNFCReaderURL: Sendable, Hashable, CustomStringConvertible {
    /// Which device.
    public enum Selector: Sendable, Hashable {
        /// The first device `nfc_list_devices` returns.
        case first
        /// The device at this position of `nfc_list_devices`' list.
        case index(Int)
        /// The device this connection string names, opened with `nfc_open` (no scan).
        case connstring(String)
    }

    /// The scheme, with its colon.
    public static let scheme = "libnfc:"

    /// The drivers of libnfc 1.8.0 (`libnfc/drivers/`), by the name a connection string starts
    /// with. Debian's build has all but `acr122_pcsc`, `pcsc` and `pn71xx`.
    public static let drivers = [
        "pn532_uart", "pn532_spi", "pn532_i2c", "pn53x_usb", "acr122_usb", "acr122s", "arygon", "acr122_pcsc", "pcsc",
        "pn71xx",
    ]

    /// Drivers that reach the device through a port that must be named (serial, SPI, I2C).
    public static let portDrivers: Set<String> = ["pn532_uart", "pn532_spi", "pn532_i2c", "acr122s", "arygon"]

    /// The longest connection string libnfc takes (`NFC_BUFSIZE_CONNSTRING` less its NUL).
    public static let maximumConnstringLength = 1023

    /// Which device.
    public var selector: Selector

    /// Creates a URL value.
    public init(selector: Selector = .first) {
        self.selector = selector
    }

    /// Parses `text`.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` naming what is wrong: the
    ///   scheme, an unknown driver, a driver without its port, an over-long connection string.
    public init(parsing text: String) throws(NFCReaderError) {
        guard text.lowercased().hasPrefix(Self.scheme) else {
            throw Self.error(
                text,
                "a libnfc device is named \"\(Self.scheme)CONNSTRING\", for example libnfc:pn532_uart:/dev/ttyUSB0")
        }
        let rest = String(text.dropFirst(Self.scheme.count))
        if rest.isEmpty {
            selector = .first
        } else if rest.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            guard let index = Int(rest) else { throw Self.error(text, "the device index \(rest) is too large") }
            selector = .index(index)
        } else {
            try Self.checkConnstring(rest, url: text)
            selector = .connstring(rest)
        }
    }

    /// The driver a connection string names (the text before its first colon).
    public static func driver(of connstring: String) -> String {
        String(connstring.prefix { $0 != ":" })
    }

    /// Throws unless `connstring` names a known driver, with a port where the driver needs one.
    private static func checkConnstring(_ connstring: String, url: String) throws(NFCReaderError) {
        guard connstring.utf8.count <= maximumConnstringLength else {
            throw error(url, "the connection string is longer than libnfc's \(maximumConnstringLength) bytes")
        }
        guard !connstring.utf8.contains(0) else { throw error(url, "the connection string contains a NUL byte") }
        let driver = driver(of: connstring)
        guard driver == "usb" || drivers.contains(driver) else {
            throw error(
                url,
                "libnfc has no driver \"\(driver)\"; a connection string is DRIVER:PORT with a driver among "
                    + drivers.joined(separator: ", ") + " (or usb), for example pn532_uart:/dev/ttyUSB0")
        }
        if portDrivers.contains(driver), connstring.dropFirst(driver.count + 1).isEmpty {
            throw error(url, "the \(driver) driver needs the port: \(driver):/dev/ttyUSB0 (or the board's port)")
        }
    }

    /// The URL in canonical form.
    public var description: String {
        switch selector {
        case .first: Self.scheme
        case .index(let index): Self.scheme + String(index)
        case .connstring(let connstring): Self.scheme + connstring
        }
    }

    /// An ``NFCSession/NFCReaderError/Code/invalidParameter`` error about `url`.
    static func error(_ url: String, _ reason: String) -> NFCReaderError {
        NFCReaderError(.invalidParameter, "libnfc device \"\(url)\": \(reason)")
    }
}
