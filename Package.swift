// swift-tools-version: 6.1
import PackageDescription

/// Settings every Swift target shares, applied below in one loop over the targets: Swift 6
/// language mode (strict concurrency) plus the upcoming features the project has adopted.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ndeftool",
    products: [
        .library(name: "HexText", targets: ["HexText"]),
        .library(name: "NDEF", targets: ["NDEF"]),
        .library(name: "NDEFFoundation", targets: ["NDEFFoundation"]),
        .library(name: "TagMemory", targets: ["TagMemory"]),
        .library(name: "TagSimulator", targets: ["TagSimulator"]),
        .library(name: "NFCCrypto", targets: ["NFCCrypto"]),
        .library(name: "NTAG424", targets: ["NTAG424"]),
        .library(name: "NFCWireFormat", targets: ["NFCWireFormat"]),
        .library(name: "NFCSession", targets: ["NFCSession"]),
        .library(name: "SimulatedReader", targets: ["SimulatedReader"]),
        .library(name: "SimulatorBridges", targets: ["SimulatorBridges"]),
        .library(name: "PCSCReader", targets: ["PCSCReader"]),
        .library(name: "LibNFCReader", targets: ["LibNFCReader"]),
        .library(name: "NFCReaders", targets: ["NFCReaders"]),
        .library(name: "TagInspection", targets: ["TagInspection"]),
        .library(name: "RecordSpecifications", targets: ["RecordSpecifications"]),
        .library(name: "Provisioning", targets: ["Provisioning"]),
        .library(name: "ProvisioningDatabase", targets: ["ProvisioningDatabase"]),
        .executable(name: "ndeftool", targets: ["ndeftool"]),
    ],
    targets: [
        // Hexadecimal text for bytes and numbers, and its parsers: the package's one hex encoder. Standard
        // library only.
        .target(name: "HexText"),
        // Pure NDEF codec: Swift standard library only (no Foundation, no C).
        .target(name: "NDEF", dependencies: ["HexText"]),
        // Conveniences for Foundation's Data on top of NDEF.
        .target(name: "NDEFFoundation", dependencies: ["NDEF"]),
        // Bytes on the wire between hosts, readers and cards: ISO/IEC 7816-4 APDUs and status words, BER-TLV,
        // CRC_A, PC/SC part 3 storage-card APDUs, the ACR122U's pseudo-APDUs and PN532 frames. Pure Swift.
        .target(name: "NFCWireFormat", dependencies: ["HexText"]),
        // The one JSON parser of the modules that stay free of Foundation (dumps, journals, plans).
        .target(name: "JSONSupport", dependencies: ["HexText"]),
        // Tag memory layouts (Type 2, Type 4, MIFARE Classic), plans and dumps: pure Swift, no I/O.
        .target(
            name: "TagMemory", dependencies: ["HexText", "NDEF", "JSONSupport", "NFCWireFormat"]),
        // Reports for people and JSON on tag images and NDEF messages: what `ndeftool inspect` and
        // `decode` print, for any tool that reads dumps. Pure Swift.
        .target(name: "TagInspection", dependencies: ["HexText", "NDEF", "TagMemory"]),
        // Simulated tags answering raw commands as the datasheets describe: pure Swift, no I/O.
        .target(
            name: "TagSimulator",
            dependencies: ["HexText", "TagMemory", "NDEF", "NFCWireFormat", "NTAG424", "NFCCrypto"]),
        // What the modules that call the operating system share: the EINTR-retrying call wrapper and errno
        // text, serial and task executors over dispatch queues, blocking calls run off the cooperative pool.
        .target(name: "SystemSupport"),
        // OpenSSL's libcrypto, the one source of cryptographic primitives.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The cryptography the package needs, over libcrypto: SHA-256, HMAC, AES, CMAC, ECDSA, random bytes.
        .target(name: "NFCCrypto", dependencies: ["CCrypto", "NDEF"]),
        // NTAG 424 DNA: EV2 authentication, secure messaging, SDM settings and SUN verification
        // (AES; libcrypto through NFCCrypto), usable by a server with no reader library.
        .target(name: "NTAG424", dependencies: ["HexText", "NDEF", "NFCCrypto"]),
        // Sessions over readers: the reader contract, tag objects with CoreNFC-shaped operations.
        .target(
            name: "NFCSession",
            dependencies: ["HexText", "NDEF", "TagMemory", "NFCCrypto", "NFCWireFormat", "NTAG424"]),
        // A reader backend over simulated tags, with fault injection and tags kept in dump files.
        .target(
            name: "SimulatedReader",
            dependencies: [
                "HexText", "NFCSession", "NFCWireFormat", "TagSimulator", "TagMemory", "NDEF", "SystemSupport",
                "NFCCrypto",
            ]),
        // The C library's pseudo-terminal calls, which Swift's Glibc module leaves out.
        .systemLibrary(name: "CPseudoTerminal"),
        // The C library's process calls Swift's Glibc module leaves out (posix_spawn file
        // actions of glibc 2.29 and 2.34, prctl's dumpable flag).
        .systemLibrary(name: "CProcessControl"),
        // Simulated tags served to real reader stacks: a vpcd card for pcscd, the reader and tag
        // pair a PC/SC client sees, a PN532 on a pseudo-terminal for libnfc and nfcpy (Glibc
        // sockets and terminals, one thread per card or chip).
        .target(
            name: "SimulatorBridges",
            dependencies: [
                "HexText",
                "SimulatedReader", "NFCSession", "TagSimulator", "TagMemory", "NDEF", "NFCWireFormat",
                "CPseudoTerminal",
                "SystemSupport",
            ]),
        // pcsc-lite's client library, the PC/SC API of pcscd (Debian: libpcsclite-dev). A C target
        // rather than a system library: libpcsclite.pc would add -pthread, which SwiftPM rejects
        // in every build (see Sources/CPCSC/include/CPCSC.h).
        .target(name: "CPCSC", linkerSettings: [.linkedLibrary("pcsclite")]),
        // A reader backend over PC/SC: contactless readers served by pcscd (ACR122U, ACR1252U, ...).
        .target(
            name: "PCSCReader",
            dependencies: ["HexText", "NDEF", "NFCSession", "NFCWireFormat", "CPCSC", "SystemSupport"]),
        // libnfc, the free NFC library: its drivers for PN532 boards (UART, SPI, I2C), PN533 and
        // ACR122 USB readers. libnfc.pc requires libusb, hence libusb-dev.
        .systemLibrary(name: "CLibNFC", pkgConfig: "libnfc", providers: [.apt(["libnfc-dev", "libusb-dev"])]),
        // A reader backend over libnfc: PN532 boards on a serial port, PN533 and ACR122 readers on USB.
        .target(
            name: "LibNFCReader",
            dependencies: ["HexText", "NDEF", "NFCSession", "NFCWireFormat", "CLibNFC", "SystemSupport"]),
        // One entry point for every backend: a reader URL (sim:, pcsc:, libnfc:) to an open reader.
        .target(
            name: "NFCReaders", dependencies: ["NFCSession", "SimulatedReader", "PCSCReader", "LibNFCReader"]),
        // The command-line kit under the CLI and the record specifications: commands, options and
        // sequence grammars as data, the parser, help and usage errors (standard library only).
        .target(name: "CommandLineKit"),
        // Record specifications (`text Hello --lang en uri https://...`) to NDEF records: the
        // grammar the CLI and batch templates share (standard library only, as Provisioning).
        .target(
            name: "RecordSpecifications",
            dependencies: ["HexText", "NDEF", "JSONSupport", "CommandLineKit", "SystemSupport"]),
        // Batch provisioning: plans, message templates, the crash-safe journal, row dispensing,
        // per-tag password derivation and reports (Glibc file I/O; SHA-256 and HMAC from NFCCrypto).
        .target(
            name: "Provisioning",
            dependencies: [
                "HexText",
                "NDEF", "NFCCrypto", "NFCSession", "NTAG424", "TagMemory", "JSONSupport", "SystemSupport",
                "RecordSpecifications",
            ]),
        // libpq, PostgreSQL's client library (Debian: libpq-dev).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Batch jobs that stations on many machines share, in PostgreSQL: the schema and its
        // migrations, the ledger with leases and fencing tokens, status and reports, and the SUN
        // read counters verification servers share (libpq).
        .target(
            name: "ProvisioningDatabase",
            dependencies: [
                "HexText",
                "Provisioning", "NDEF", "NFCSession", "NFCCrypto", "NTAG424", "JSONSupport", "SystemSupport",
                "CLibPQ",
            ]),
        // The command-line surface as a library, so its parser can be tested directly.
        .target(
            name: "NDEFCommandLine",
            dependencies: [
                "HexText",
                "NDEF", "TagMemory", "NFCSession", "SimulatedReader", "TagSimulator", "SimulatorBridges",
                "PCSCReader", "LibNFCReader", "NFCReaders", "TagInspection", "Provisioning", "ProvisioningDatabase",
                "CProcessControl",
                "SystemSupport", "CommandLineKit", "RecordSpecifications", "NTAG424", "JSONSupport", "NFCCrypto",
            ]),
        .executableTarget(name: "ndeftool", dependencies: ["NDEFCommandLine"]),
        // What both benchmark executables need from the operating system.
        .target(
            name: "BenchmarkSupport", dependencies: ["NDEF", "TagSimulator", "SystemSupport"]),
        .executableTarget(
            name: "NDEFBenchmarks", dependencies: ["HexText", "NDEF", "BenchmarkSupport"]),
        // Commands and wall time of tag operations through the simulated reader.
        .executableTarget(
            name: "SDMBenchmarks", dependencies: ["NTAG424", "NFCCrypto"]),
        .executableTarget(
            name: "TagBenchmarks",
            dependencies: [
                "BenchmarkSupport", "NFCSession", "SimulatedReader", "TagSimulator", "TagMemory", "NDEF", "NTAG424",
            ]),
        // Tag commands and wall time of tag operations through the real pcscd (vpcd) and libnfc (simulated
        // PN532), with nfcpy's figures beside ours.
        .executableTarget(
            name: "ReaderBenchmarks",
            dependencies: [
                "HexText",
                "BenchmarkSupport", "PCSCReader", "LibNFCReader", "SimulatorBridges", "SimulatedReader", "NFCSession",
                "TagSimulator", "TagMemory", "NDEF",
            ]),
        // Seeded random sequences of operator commands through the built ndeftool, with invariants
        // checked after each (Scripts/explore).
        .executableTarget(
            name: "OperatorExploration",
            dependencies: ["HexText", "TagMemory", "SystemSupport", "NDEF", "NTAG424", "NFCCrypto", "Provisioning"]),
        // The software overhead per tag and the memory of batch provisioning over simulated tags.
        .executableTarget(
            name: "ProvisioningBenchmarks",
            dependencies: [
                "BenchmarkSupport", "Provisioning", "ProvisioningDatabase", "NFCSession", "SimulatedReader",
                "TagSimulator", "TagMemory", "NDEF",
            ]),
        // What the test targets share: child processes waited for without blocking a thread, temporary
        // folders, hex literals, seeded random numbers, a clock for tests, golden files, PostgreSQL
        // servers and databases, batch stations and their events, SUN URLs and the counter stores'
        // contract.
        .target(
            name: "TestSupport",
            dependencies: [
                "HexText", "NDEF", "CProcessControl", "SystemSupport", "Provisioning", "SimulatedReader", "NTAG424",
            ],
            path: "Tests/TestSupport"),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(
            name: "NDEFTests",
            dependencies: [
                "HexText",
                "TestSupport", "NDEF", "NDEFFoundation",
            ]),
        .testTarget(
            name: "NFCWireFormatTests", dependencies: ["HexText", "TestSupport", "NFCWireFormat"]),
        .testTarget(
            name: "NFCReadersTests", dependencies: ["NFCReaders", "NFCSession", "NDEF"]),
        .testTarget(
            name: "TagInspectionTests", dependencies: ["TestSupport", "TagInspection", "TagMemory", "NDEF"]),
        .testTarget(
            name: "RecordSpecificationsTests", dependencies: ["TestSupport", "RecordSpecifications", "NDEF"]),
        .testTarget(name: "HexTextTests", dependencies: ["HexText"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .testTarget(name: "JSONSupportTests", dependencies: ["JSONSupport"]),
        .testTarget(name: "NFCCryptoTests", dependencies: ["TestSupport", "NFCCrypto"]),
        .testTarget(
            name: "NTAG424Tests", dependencies: ["TestSupport", "NTAG424", "NFCCrypto", "NDEF"]),
        .testTarget(
            name: "TagMemoryTests",
            dependencies: [
                "HexText",
                "TestSupport", "TagMemory", "NDEF",
            ]),
        .testTarget(
            name: "TagSimulatorTests",
            dependencies: [
                "TestSupport", "TagSimulator", "TagMemory", "NDEF", "NTAG424", "NFCCrypto",
            ]),
        .testTarget(
            name: "NFCSessionTests",
            dependencies: [
                "TestSupport", "NFCSession", "SimulatedReader", "TagSimulator", "TagMemory", "NDEF", "NTAG424",
            ]),
        .testTarget(
            name: "SimulatedReaderTests",
            dependencies: [
                "HexText",
                "TestSupport", "SimulatedReader", "NFCSession", "TagSimulator", "TagMemory", "NDEF",
            ]),
        .testTarget(
            name: "SimulatorBridgesTests",
            dependencies: [
                "TestSupport", "NFCWireFormat", "SystemSupport", "SimulatorBridges", "SimulatedReader", "NFCSession",
                "TagSimulator",
                "TagMemory", "NDEF",
            ]),
        .testTarget(
            name: "PCSCReaderTests",
            dependencies: [
                "TestSupport", "NFCWireFormat",
                "PCSCReader", "NFCSession", "CPCSC", "NDEF", "TagMemory", "SimulatorBridges", "SimulatedReader",
                "TagSimulator", "SystemSupport",
            ]),
        .testTarget(
            name: "LibNFCReaderTests",
            dependencies: [
                "TestSupport",
                "LibNFCReader", "NFCSession", "CLibNFC", "NDEF", "TagMemory", "SimulatorBridges", "SimulatedReader",
                "TagSimulator",
            ]),
        .testTarget(
            name: "ProvisioningTests",
            dependencies: [
                "TestSupport", "Provisioning", "NFCCrypto", "SystemSupport", "NDEF", "NFCSession", "SimulatedReader",
                "TagSimulator", "TagMemory", "RecordSpecifications",
            ]),
        .testTarget(
            name: "ProvisioningDatabaseTests",
            dependencies: [
                "TestSupport", "ProvisioningDatabase", "Provisioning", "NFCSession", "SimulatedReader", "NDEF",
                "RecordSpecifications", "TagSimulator", "TagMemory", "NTAG424",
            ]),
        .testTarget(
            name: "NDEFCommandLineTests",
            dependencies: [
                "HexText",
                "TestSupport",
                "NDEFCommandLine", "NDEF", "TagMemory", "NFCSession", "SimulatedReader", "PCSCReader", "LibNFCReader",
                "NFCReaders", "TagInspection", "Provisioning", "CommandLineKit", "RecordSpecifications", "NFCCrypto",
                "NTAG424", "ProvisioningDatabase", "SimulatorBridges", "TagSimulator",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
