import NFCSession
import Testing

@testable import LibNFCReader

/// `libnfc:` URLs: the first device, an index, or a connection string opened directly.
@Suite("libnfc reader URLs")
struct LibNFCReaderURLTests {
    @Test(
        "URLs parse to their selector and print in canonical form",
        arguments: [
            ("libnfc:", LibNFCReaderURL.Selector.first, "libnfc:"),
            ("LIBNFC:", .first, "libnfc:"),
            ("libnfc:0", .index(0), "libnfc:0"),
            ("libnfc:12", .index(12), "libnfc:12"),
            (
                "libnfc:pn532_uart:/dev/ttyUSB0", .connstring("pn532_uart:/dev/ttyUSB0"),
                "libnfc:pn532_uart:/dev/ttyUSB0"
            ),
            (
                "Libnfc:pn532_uart:/dev/ttyAMA0:115200", .connstring("pn532_uart:/dev/ttyAMA0:115200"),
                "libnfc:pn532_uart:/dev/ttyAMA0:115200"
            ),
            ("libnfc:pn53x_usb", .connstring("pn53x_usb"), "libnfc:pn53x_usb"),
            ("libnfc:acr122_usb:001:004", .connstring("acr122_usb:001:004"), "libnfc:acr122_usb:001:004"),
            ("libnfc:usb", .connstring("usb"), "libnfc:usb"),
            ("libnfc:pn532_i2c:/dev/i2c-1", .connstring("pn532_i2c:/dev/i2c-1"), "libnfc:pn532_i2c:/dev/i2c-1"),
        ])
    func parses(_ text: String, _ selector: LibNFCReaderURL.Selector, _ canonical: String) throws {
        let url = try LibNFCReaderURL(parsing: text)
        #expect(url.selector == selector)
        #expect(url.description == canonical)
        #expect(try LibNFCReaderURL(parsing: url.description) == url)
    }

    @Test(
        "malformed URLs are invalid-parameter errors that say what is wrong",
        arguments: [
            ("pcsc:0", "libnfc:CONNSTRING"),
            ("libnfc:ttyUSB0", "no driver \"ttyUSB0\""),
            ("libnfc:pn532:/dev/ttyUSB0", "no driver \"pn532\""),
            ("libnfc:pn532_uart", "needs the port"),
            ("libnfc:pn532_uart:", "needs the port"),
            ("libnfc:99999999999999999999999", "too large"),
            ("libnfc:pn532_uart:/dev/" + String(repeating: "x", count: 1100), "longer than"),
        ])
    func refuses(_ text: String, _ fragment: String) {
        do {
            _ = try LibNFCReaderURL(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.code == .invalidParameter)
            #expect(error.reason.contains(fragment), "\(error.reason)")
        }
    }

    @Test("the driver of a connection string is the text before its first colon")
    func driver() {
        #expect(LibNFCReaderURL.driver(of: "pn532_uart:/dev/ttyUSB0:115200") == "pn532_uart")
        #expect(LibNFCReaderURL.driver(of: "pn53x_usb") == "pn53x_usb")
        #expect(LibNFCReaderURL.driver(of: "") == "")
    }
}
