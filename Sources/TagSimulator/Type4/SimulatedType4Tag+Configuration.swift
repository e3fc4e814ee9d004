import TagMemory

extension SimulatedType4Tag {
    /// What a simulated Type 4 tag is made of: its identity, the capability container it ships
    /// with (NFC Forum Type 4 Tag 3.0, section 5.1) and a few behaviours that differ between
    /// real tags.
    ///
    /// The defaults describe an NTAG 424 DNA as delivered (NT4H2421Gx datasheet, sections 8.2
    /// and 10.9; its CC file `00 17 20 01 00 00 FF 04 06 E1 04 01 00 00 00 05 06 E1 05 ...`):
    /// mapping version 2.0, MLe 256, MLc 255, NDEF file `E104` of 256 bytes with free read and
    /// write access, a 7-byte UID and a 128-byte frame size. The simulated CC has no Proprietary
    /// File Control TLV (the NTAG 424 DNA lists its file `E105` there), so its CCLEN is `000F`.
    public struct Configuration: Sendable, Hashable {
        /// The UID: 4, 7 or 10 bytes (ISO/IEC 14443-3 single, double or triple size).
        public var uid: [UInt8]
        /// The mapping version byte of the CC: `10` (1.0), `20` (2.0) or `30` (3.0); the low
        /// nibble (minor version) is kept as given.
        ///
        /// Version 1.0 tags answer to the application identifier `D2760000850100`, later ones to
        /// `D2760000850101` (T4T 3.0, 5.4.2). Version 3.0 tags describe the NDEF file with an
        /// Extended NDEF File Control TLV (`06 08`, 4-byte size, 4-byte ENLEN, 5.1.2) and accept
        /// READ and UPDATE BINARY with an offset data object (`B1`, `D7`).
        public var mappingVersion: UInt8
        /// MLe: the most data one READ BINARY response carries, `000F`-`FFFF` (5.1).
        public var maximumResponseDataSize: Int
        /// MLc: the most command data one UPDATE BINARY carries, `0001`-`FFFF` (5.1 asks for
        /// `000D` or more; smaller values are accepted as readers accept them).
        public var maximumCommandDataSize: Int
        /// The NDEF file identifier, for example `E104` (5.1.2 reserves `0000` from version
        /// 2.0 on, `E102`, `E103`, `3F00`, `3FFF` and `FFFF`).
        public var ndefFileIdentifier: UInt16
        /// The NDEF file size in bytes, NLEN (or ENLEN) included: `0005`-`7FFF` for versions
        /// 1.0 and 2.0 (the reach of READ BINARY `B0`), 7 bytes to ``maximumSimulatedFileSize``
        /// for version 3.0.
        public var maximumNDEFFileSize: Int
        /// The NDEF file's read access condition in the CC (5.1.2): `00` granted; anything else
        /// refuses READ BINARY with `6982` (no authentication is simulated).
        public var readAccess: Type4AccessCondition
        /// The NDEF file's write access condition in the CC (5.1.2): `00` granted; `FF` (no
        /// access), proprietary `80`-`FE` and reserved values refuse UPDATE BINARY with `6982`.
        public var writeAccess: Type4AccessCondition
        /// Whether UPDATE BINARY may change the CC file.
        ///
        /// Off by default: most tags refuse it (an NTAG 424 DNA guards its CC file with key 0).
        /// When on, the tag enforces the read and write access bytes as the CC holds them after
        /// every write, so the read-only procedure of 5.5.8 (write access `FF` at CC offset
        /// `0E`) makes the NDEF file read-only.
        public var isCapabilityContainerWritable: Bool
        /// Whether a READ BINARY that reaches the end of the file before Le bytes answers
        /// `6282` (ISO/IEC 7816-4, end of file reached before reading Ne bytes) instead of
        /// `9000`. Off by default: an NTAG 424 DNA returns the bytes up to the end with `9000`
        /// (NT4H2421Gx 10.9.2). An Le of `00` never warns: it asks for what is there.
        public var reportsEndOfFile: Bool
        /// FSC, the largest ISO-DEP frame the tag accepts (ISO/IEC 14443-4, 5.2.3): 16 to 4096
        /// bytes, rounded down to the nearest FSCI step in the ATS.
        public var frameSize: Int

        /// Creates a configuration; every value has the NTAG 424 DNA default.
        public init(
            uid: [UInt8] = SimulatedType4Tag.defaultUID,
            mappingVersion: UInt8 = 0x20,
            maximumResponseDataSize: Int = 0x0100,
            maximumCommandDataSize: Int = 0x00FF,
            ndefFileIdentifier: UInt16 = 0xE104,
            maximumNDEFFileSize: Int = 0x0100,
            readAccess: Type4AccessCondition = .granted,
            writeAccess: Type4AccessCondition = .granted,
            isCapabilityContainerWritable: Bool = false,
            reportsEndOfFile: Bool = false,
            frameSize: Int = 128
        ) {
            self.uid = uid
            self.mappingVersion = mappingVersion
            self.maximumResponseDataSize = maximumResponseDataSize
            self.maximumCommandDataSize = maximumCommandDataSize
            self.ndefFileIdentifier = ndefFileIdentifier
            self.maximumNDEFFileSize = maximumNDEFFileSize
            self.readAccess = readAccess
            self.writeAccess = writeAccess
            self.isCapabilityContainerWritable = isCapabilityContainerWritable
            self.reportsEndOfFile = reportsEndOfFile
            self.frameSize = frameSize
        }

        /// The largest NDEF file a simulated tag holds, 1 MiB: the whole file is kept in memory.
        public static let maximumSimulatedFileSize = 1 << 20

        /// The major mapping version (high nibble of ``mappingVersion``).
        public var majorVersion: Int { Int(mappingVersion >> 4) }

        /// The NDEF Tag Application identifier the tag answers to (T4T 3.0, 5.4.2).
        public var applicationIdentifier: [UInt8] {
            majorVersion == 1 ? Type4Command.version1ApplicationIdentifier : Type4Command.ndefApplicationIdentifier
        }

        /// Whether the tag accepts extended-length APDUs: only when MLe or MLc says a short
        /// APDU cannot carry the most it allows (MLe above 256 or MLc above 255).
        public var acceptsExtendedLength: Bool { maximumResponseDataSize > 256 || maximumCommandDataSize > 255 }

        /// The capability container this configuration ships with (T4T 3.0, 5.1), checked by
        /// the same parser readers use.
        ///
        /// - Throws: ``TagMemory/TagMemoryError/Code/invalidArgument`` for a UID that is not 4, 7 or 10
        ///   bytes, a major version other than 1, 2 or 3, a frame size outside 16...4096, a
        ///   file larger than ``maximumSimulatedFileSize``, or any value the CC parser refuses
        ///   (its reason is kept).
        public func capabilityContainer() throws(TagMemoryError) -> Type4CapabilityContainer {
            guard [4, 7, 10].contains(uid.count) else {
                throw TagMemoryError(.invalidArgument, "a UID has 4, 7 or 10 bytes, not \(uid.count)")
            }
            guard (1...3).contains(majorVersion) else {
                throw TagMemoryError(.invalidArgument, "mapping version \(majorVersion) is not 1, 2 or 3")
            }
            guard (16...4096).contains(frameSize) else {
                throw TagMemoryError(.invalidArgument, "a frame size of \(frameSize) is outside 16...4096")
            }
            guard (0...Self.maximumSimulatedFileSize).contains(maximumNDEFFileSize) else {
                throw TagMemoryError(
                    .invalidArgument,
                    "a \(maximumNDEFFileSize)-byte NDEF file is larger than the \(Self.maximumSimulatedFileSize) "
                        + "bytes a simulated tag holds")
            }
            let kind: Type4FileControl.Kind = majorVersion >= 3 ? .extendedNDEF : .ndef
            let cc = Type4CapabilityContainer(
                mappingVersion: mappingVersion, maximumResponseDataSize: maximumResponseDataSize,
                maximumCommandDataSize: maximumCommandDataSize,
                ndefFile: Type4FileControl(
                    kind: kind, fileIdentifier: ndefFileIdentifier, maximumFileSize: maximumNDEFFileSize,
                    readAccess: readAccess, writeAccess: writeAccess))
            do {
                return try Type4CapabilityContainer(parsing: try cc.encoded())
            } catch {
                throw TagMemoryError(.invalidArgument, "the configuration makes no valid CC: \(error.reason)")
            }
        }

        /// ATQA (SENS_RES) as sent, least significant byte first: the UID size in bits 8-7 and
        /// bit frame anticollision in bit 3 (ISO/IEC 14443-3, 6.4.2), then `03` as NXP chips
        /// send it; `44 03` for a 7-byte UID, as an NTAG 424 DNA answers.
        public var atqa: [UInt8] {
            let size: UInt8 =
                switch uid.count {
                case 7: 0x40
                case 10: 0x80
                default: 0x00
                }
            return [size | 0x04, 0x03]
        }

        /// The ATS (ISO/IEC 14443-4, 5.2) without CRC: TL 06, T0 with FSCI from ``frameSize``
        /// and TA, TB, TC present, TA 77 (106 to 848 kbit/s both ways), TB 71 (FWI 7, SFGI 1),
        /// TC 02 (CID supported), historical byte 80; `06 77 77 71 02 80` for 128 bytes, as an
        /// NTAG 424 DNA answers.
        public var ats: [UInt8] {
            let sizes = [16, 24, 32, 40, 48, 64, 96, 128, 256, 512, 1024, 2048, 4096]
            let fsci = sizes.lastIndex { $0 <= frameSize } ?? 0
            return [0x06, 0x70 | UInt8(truncatingIfNeeded: fsci), 0x77, 0x71, 0x02, 0x80]
        }
    }
}
