import NDEF
import TagMemory
import TagSimulator

extension SimulatedReaderURL {
    /// The Type 4 options of a `sim:type4` URL. Each is nil when the URL leaves it out: a new
    /// tag then has the default of ``TagSimulator/SimulatedType4Tag/Configuration`` (an
    /// NTAG 424 DNA as delivered: mapping version 2.0, MLe 256, MLc 255, a 256-byte NDEF file
    /// with free read and write access), and a tag loaded from a file keeps the file's value.
    public struct Type4Settings: Sendable, Hashable {
        /// `version=1|2|3` (or `v1=1` for 1): the major mapping version of the capability
        /// container, 1.0, 2.0 or 3.0 (NFC Forum Type 4 Tag 3.0, 5.1). A 1.0 tag answers to the
        /// NDEF Tag Application identifier `D2760000850100`, later ones to `D2760000850101`
        /// (5.4.2); a 3.0 tag describes its NDEF file with an Extended NDEF File Control TLV and
        /// takes READ and UPDATE BINARY with offset data objects (`B1`, `D7`).
        public var majorVersion: Int?
        /// `mle=N`: MLe, the most data one READ BINARY response carries, 15 to 65535 (5.1).
        public var maximumResponseDataSize: Int?
        /// `mlc=N`: MLc, the most command data one UPDATE BINARY carries, 1 to 65535 (5.1).
        public var maximumCommandDataSize: Int?
        /// `ndef-size=N`: the NDEF file size in bytes, NLEN (or ENLEN) included: 5 to 32767
        /// for versions 1.0 and 2.0, 7 to ``TagSimulator/SimulatedType4Tag/Configuration/maximumSimulatedFileSize``
        /// for 3.0 (5.1.2).
        public var maximumNDEFFileSize: Int?
        /// `read-access=HH`: the NDEF file's read access condition, `00` (granted), `FF` or a
        /// proprietary `80`-`FE` (refused: no authentication is simulated); `01`-`7F` are
        /// reserved (5.1.2).
        public var readAccess: Type4AccessCondition?
        /// `write-access=HH`: the NDEF file's write access condition, `00` (granted), `FF`
        /// (read-only) or a proprietary `80`-`FE` (refused); `01`-`7F` are reserved (5.1.2).
        public var writeAccess: Type4AccessCondition?
        /// `cc-writable=1`: UPDATE BINARY may change the CC file, so the read-only procedure of
        /// 5.5.8 (write access `FF` at CC offset `0E`) works (most tags refuse it).
        public var isCapabilityContainerWritable: Bool?

        /// Creates settings; nil leaves an option out.
        public init(
            majorVersion: Int? = nil,
            maximumResponseDataSize: Int? = nil,
            maximumCommandDataSize: Int? = nil,
            maximumNDEFFileSize: Int? = nil,
            readAccess: Type4AccessCondition? = nil,
            writeAccess: Type4AccessCondition? = nil,
            isCapabilityContainerWritable: Bool? = nil
        ) {
            self.majorVersion = majorVersion
            self.maximumResponseDataSize = maximumResponseDataSize
            self.maximumCommandDataSize = maximumCommandDataSize
            self.maximumNDEFFileSize = maximumNDEFFileSize
            self.readAccess = readAccess
            self.writeAccess = writeAccess
            self.isCapabilityContainerWritable = isCapabilityContainerWritable
        }

        /// The configuration of a new tag: the defaults, with every option given and `uid`
        /// (``TagSimulator/SimulatedType4Tag/defaultUID`` when nil) applied.
        public func configuration(uid: [UInt8]?) -> SimulatedType4Tag.Configuration {
            var configuration = SimulatedType4Tag.Configuration(uid: uid ?? SimulatedType4Tag.defaultUID)
            if let majorVersion { configuration.mappingVersion = UInt8(truncatingIfNeeded: majorVersion << 4) }
            if let maximumResponseDataSize { configuration.maximumResponseDataSize = maximumResponseDataSize }
            if let maximumCommandDataSize { configuration.maximumCommandDataSize = maximumCommandDataSize }
            if let maximumNDEFFileSize { configuration.maximumNDEFFileSize = maximumNDEFFileSize }
            if let readAccess { configuration.readAccess = readAccess }
            if let writeAccess { configuration.writeAccess = writeAccess }
            if let isCapabilityContainerWritable {
                configuration.isCapabilityContainerWritable = isCapabilityContainerWritable
            }
            return configuration
        }

        /// The options given whose value differs from `configuration` (a tag's, loaded from a
        /// file), each as `key=value` with the tag's value after it.
        func conflicts(with configuration: SimulatedType4Tag.Configuration) -> [String] {
            var conflicts: [String] = []
            func check(_ key: String, _ given: String?, _ actual: String) {
                if let given, given != actual { conflicts.append("\(key)=\(given) (the file's tag has \(actual))") }
            }
            check("version", majorVersion.map { "\($0)" }, "\(configuration.majorVersion)")
            check("mle", maximumResponseDataSize.map { "\($0)" }, "\(configuration.maximumResponseDataSize)")
            check("mlc", maximumCommandDataSize.map { "\($0)" }, "\(configuration.maximumCommandDataSize)")
            check("ndef-size", maximumNDEFFileSize.map { "\($0)" }, "\(configuration.maximumNDEFFileSize)")
            check("read-access", readAccess.map(Self.hex), Self.hex(configuration.readAccess))
            check("write-access", writeAccess.map(Self.hex), Self.hex(configuration.writeAccess))
            check(
                "cc-writable", isCapabilityContainerWritable.map { $0 ? "1" : "0" },
                configuration.isCapabilityContainerWritable ? "1" : "0")
            return conflicts
        }

        /// The options given, as URL items in canonical order.
        var items: [String] {
            var items: [String] = []
            if let majorVersion { items.append("version=\(majorVersion)") }
            if let maximumResponseDataSize { items.append("mle=\(maximumResponseDataSize)") }
            if let maximumCommandDataSize { items.append("mlc=\(maximumCommandDataSize)") }
            if let maximumNDEFFileSize { items.append("ndef-size=\(maximumNDEFFileSize)") }
            if let readAccess { items.append("read-access=" + Self.hex(readAccess)) }
            if let writeAccess { items.append("write-access=" + Self.hex(writeAccess)) }
            if let isCapabilityContainerWritable {
                items.append("cc-writable=\(isCapabilityContainerWritable ? 1 : 0)")
            }
            return items
        }

        private static func hex(_ condition: Type4AccessCondition) -> String {
            NDEFHex.encode([condition.rawValue], uppercase: true, separator: "")
        }
    }
}
