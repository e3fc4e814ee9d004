import LibNFCReader
import NFCSession
import PCSCReader
import SystemSupport

/// How commands ask pcscd about its readers: the reader names, whether a tag is on one, and
/// their changes. ``system`` asks the real pcscd; tests running commands in process supply their
/// own answers, so that no PC/SC call is made from the test process.
struct PCSCDirectory: Sendable {
    /// pcscd's reader names, in its order.
    var names: @Sendable () async throws(NFCReaderError) -> [String]
    /// Whether a tag is on the reader; nil when pcscd does not say.
    var tagPresent: @Sendable (String) async -> Bool?
    /// The readers as they come and go (``PCSCReader/PCSCReaders/watchReaders()``).
    var watchReaders: @Sendable () -> AsyncThrowingStream<PCSCReaderEvent, any Error> = {
        AsyncThrowingStream { $0.finish(throwing: NFCReaderError(.readerUnavailable, "pcscd is not running")) }
    }
    /// The tag on a reader as it comes and goes (``PCSCReader/PCSCReaders/watchCard(in:)``).
    var watchCard: @Sendable (String) -> AsyncThrowingStream<PCSCCardEvent, any Error> = { _ in
        AsyncThrowingStream { $0.finish() }
    }

    /// The real pcscd.
    static let system = PCSCDirectory(
        names: { () throws(NFCReaderError) in try await PCSCReaders.names() },
        tagPresent: { name in await ReadersCommand.tagPresent(in: name) },
        watchReaders: { PCSCReaders.watchReaders() },
        watchCard: { PCSCReaders.watchCard(in: $0) })

    /// No pcscd: every question is answered as if it were not running.
    static let unavailable = PCSCDirectory(
        names: { () throws(NFCReaderError) in
            throw NFCReaderError(.readerUnavailable, "pcscd is not running")
        },
        tagPresent: { _ in nil })
}

/// How commands ask libnfc for its devices. ``system`` asks libnfc (`nfc_list_devices`); tests
/// running commands in process supply their own answer, so that the test process makes no libnfc
/// call (libnfc's scan touches USB, and its start-up changes the process environment).
struct LibNFCDirectory: Sendable {
    /// The connection strings of the devices libnfc knows, in its order.
    var connstrings: @Sendable () async throws(NFCReaderError) -> [String]
    /// Whether a tag is at the device with this connection string, found by opening it and polling
    /// once (`ndeftool readers --probe`); nil when the device cannot be asked.
    var probe: @Sendable (String) async -> Bool? = { _ in nil }
    /// Whether the device of a connection string libnfc's list left out is still attached (held
    /// by another program: ``LibNFCDeviceNode``), so that `readers --watch` does not report it
    /// removed.
    var isAttached: @Sendable (String) -> Bool = { _ in false }

    /// libnfc itself.
    static let system = LibNFCDirectory(
        connstrings: { () throws(NFCReaderError) in try await LibNFCDevices.connstrings() },
        probe: { connstring in
            guard let device = try? await LibNFCReaderDevice.open(connstring: connstring) else { return nil }
            let targets = try? await device.pollTargets()
            await device.close()
            return targets.map { !$0.isEmpty }
        },
        isAttached: { LibNFCDeviceNode.exists($0) })

    /// No device configured or found.
    static let none = LibNFCDirectory(connstrings: { () throws(NFCReaderError) in [] })
}

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
