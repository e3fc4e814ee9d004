import NDEF
import NFCSession
import TagMemory
import TagSimulator

extension SimulatedReaderOptions {
    /// Reads one Type 4 option (``SimulatedReaderURL/Type4Settings``).
    mutating func takeType4(key: String, value: String) throws(NFCReaderError) {
        switch key {
        case "version": type4.majorVersion = try version(value)
        case "v1": versionOne = try boolean(value, key: key)
        case "mle": type4.maximumResponseDataSize = try number(value, key: key, range: 15...0xFFFF)
        case "mlc": type4.maximumCommandDataSize = try number(value, key: key, range: 1...0xFFFF)
        case "ndef-size":
            type4.maximumNDEFFileSize = try number(
                value, key: key, range: 5...SimulatedType4Tag.Configuration.maximumSimulatedFileSize)
        case "read-access": type4.readAccess = try access(value, key: key)
        case "write-access": type4.writeAccess = try access(value, key: key)
        default: type4.isCapabilityContainerWritable = try boolean(value, key: key)
        }
    }

    /// The Type 4 options, checked as a whole: `v1` against `version`, `ndef-size` against the
    /// version, and the capability container they make.
    func type4Settings() throws(NFCReaderError) -> SimulatedReaderURL.Type4Settings {
        var settings = type4
        if let versionOne {
            if let major = settings.majorVersion, (major == 1) != versionOne {
                throw error("v1=\(versionOne ? 1 : 0) contradicts version=\(major)")
            }
            if versionOne { settings.majorVersion = 1 }
        }
        let major = settings.majorVersion ?? SimulatedType4Tag.Configuration().majorVersion
        if let size = settings.maximumNDEFFileSize {
            let range = major >= 3 ? 7...SimulatedType4Tag.Configuration.maximumSimulatedFileSize : 5...0x7FFF
            guard range.contains(size) else {
                let more = major < 3 ? "; version=3 allows larger files" : ""
                throw error(
                    "ndef-size=\(size): mapping version \(major).0 allows \(range.lowerBound) to \(range.upperBound) "
                        + "bytes\(more)")
            }
        }
        do {
            _ = try settings.configuration(uid: uid).capabilityContainer()
        } catch {
            throw self.error("the Type 4 options make no valid capability container: \(error.reason)")
        }
        return settings
    }

    /// `1`, `2` or `3` (or `1.0`, `2.0`, `3.0`): the major mapping version.
    private func version(_ value: String) throws(NFCReaderError) -> Int {
        switch value {
        case "1", "1.0": 1
        case "2", "2.0": 2
        case "3", "3.0": 3
        default: throw error("version=\(value): expected 1, 2 or 3 (Type 4 mapping version 1.0, 2.0 or 3.0)")
        }
    }

    /// An access condition byte in two hex digits: `00`, `FF` or `80`-`FE` (NFC Forum Type 4
    /// Tag 3.0, 5.1.2); `01`-`7F` are reserved.
    private func access(_ value: String, key: String) throws(NFCReaderError) -> Type4AccessCondition {
        guard value.utf8.count == 2, let byte = try? NDEFHex.decode(value), let first = byte.first else {
            throw error("\(key)=\(value): expected one byte in hex: 00, FF or 80 to FE")
        }
        let condition = Type4AccessCondition(rawValue: first)
        guard !condition.isReserved else {
            throw error("\(key)=\(value): 01 to 7F are reserved (Type 4 Tag 3.0, 5.1.2); expected 00, FF or 80 to FE")
        }
        return condition
    }
}
