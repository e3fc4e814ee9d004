#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The device file behind a libnfc connection string, to tell a reader that was unplugged from
/// one another program holds: libnfc's USB scan (`pn53x_usb_scan`, `acr122_usb_scan`) opens each
/// candidate and leaves out one whose configuration it cannot set, which is the case while
/// another process has claimed it. Only the file's existence is checked; nothing is opened.
enum LibNFCDeviceNode {
    /// The device file of `connstring`: `/dev/bus/usb/BUS/DEVICE` for a USB driver
    /// (`pn53x_usb:001:004`, `acr122_usb:001:004`, as libnfc names them from the bus and device
    /// numbers), the path for a serial, SPI or I²C one (`pn532_uart:/dev/ttyUSB0:115200`); nil
    /// when the connection string names none.
    static func path(of connstring: String) -> String? {
        let parts = connstring.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else { return nil }
        if parts[0].hasSuffix("_usb") {
            guard parts.count >= 3, !parts[1].isEmpty, !parts[2].isEmpty,
                (parts[1] + parts[2]).allSatisfy({ $0.isASCII && $0.isNumber })
            else { return nil }
            return "/dev/bus/usb/\(parts[1])/\(parts[2])"
        }
        return parts[1].hasPrefix("/") ? parts[1] : nil
    }

    /// Whether the device file of `connstring` exists (false when it names none).
    static func exists(_ connstring: String) -> Bool {
        guard let path = path(of: connstring) else { return false }
        return access(path, F_OK) == 0
    }
}
