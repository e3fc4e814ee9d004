import NFCSession
import Testing

@testable import LibNFCReader

/// Opening libnfc devices that are not there: reader-unavailable, with what to check.
@Suite("libnfc devices that are not there")
struct LibNFCDeviceTests {
    @Test("pn532_uart:/nonexistent: reader-unavailable, no such port, and where serial boards are named")
    func nonexistentPort() async {
        do {
            _ = try await LibNFCDevices.open(url: "libnfc:pn532_uart:/nonexistent")
            Issue.record("a device opened")
        } catch {
            #expect(error.code == .readerUnavailable)
            #expect(error.reason.contains("libnfc could not open the device pn532_uart:/nonexistent"))
            #expect(error.reason.contains("there is no port /nonexistent"))
            #expect(error.reason.contains("LIBNFC_DEVICE=pn532_uart:/dev/ttyUSB0"))
            #expect(error.reason.contains("/etc/nfc/libnfc.conf"))
            #expect(error.reason.contains("pcscd"))
        }
    }

    @Test("a port that is no PN532 (/dev/null): nothing answered, check wiring and speed")
    func silentPort() async {
        do {
            _ = try await LibNFCReaderDevice.open(connstring: "pn532_uart:/dev/null")
            Issue.record("a device opened")
        } catch {
            #expect(error.code == .readerUnavailable)
            #expect(error.reason.contains("nothing answered as a PN532 on /dev/null"))
        }
    }

    @Test("a USB device that is not there: permission, the kernel's pn533 driver and pcscd are named")
    func missingUSBDevice() {
        let error = LibNFCDevices.openFailure("acr122_usb:001:099")
        #expect(error.code == .readerUnavailable)
        #expect(error.reason.contains("no such USB device"))
        #expect(error.reason.contains("pcscd"))
    }

    @Test("listing works without a device; with none listed, libnfc: explains how to name one")
    func listing() async throws {
        let devices = try await LibNFCDevices.connstrings()
        guard devices.isEmpty else { return }
        do {
            _ = try await LibNFCDevices.open(LibNFCReaderURL(selector: .first))
            Issue.record("a device opened")
        } catch {
            #expect(error.code == .readerUnavailable)
            #expect(error.reason.hasPrefix("libnfc found no device"))
            #expect(error.reason.contains(LibNFCDevices.setupHint))
        }
        do {
            _ = try await LibNFCDevices.open(LibNFCReaderURL(selector: .index(2)))
            Issue.record("a device opened")
        } catch {
            #expect(error.code == .readerUnavailable)
        }
    }

    @Test("frame sizes: PN532 boards pass 260 bytes of tag data, other drivers 250")
    func frameSizes() {
        for driver in ["pn532_uart", "pn532_spi", "pn532_i2c", "arygon"] {
            #expect(LibNFCReaderDevice.maximumFrameSize(driver: driver) == 260)
        }
        for driver in ["acr122_usb", "acr122s", "pn53x_usb", "usb"] {
            #expect(LibNFCReaderDevice.maximumFrameSize(driver: driver) == 250)
        }
        // A FAST_READ of 65 pages (260 bytes) fits a PN532 frame.
        #expect(LibNFCReaderDevice.maximumFrameSize(driver: "pn532_uart") / 4 == 65)
    }
}
