/// Which of the commands PC/SC contactless readers offer besides the standard storage-card
/// APDUs a ``ContactlessReaderEmulator`` answers.
///
/// Every profile answers PC/SC Part 3 (v2.02, 3.2.2.1) GET DATA, READ BINARY, UPDATE BINARY,
/// LOAD KEYS and GENERAL AUTHENTICATE, and passes every APDU of another class than `FF` to an
/// ISO-DEP (Type 4) tag. The profiles differ in the pass-through they offer for raw tag
/// commands (PWD_AUTH, GET_VERSION, READ_SIG, FAST_READ):
/// - ``acr122u``: the ACS ACR122U (firmware 2.07): Direct Transmit to its PN532
///   (`FF 00 00 00 Lc D4 ...`), firmware version, LED and buzzer commands; no PC/SC 2.02
///   transparent session (`FF C2` answers `6A 81`).
/// - ``pcsc202``: a reader implementing PC/SC Part 3 v2.02 Manage Session and Transparent
///   Exchange (`FF C2 00 00`, `FF C2 00 01`, `FF C2 00 02`), as the ACS ACR1252U and ACR1552U
///   do; no PN532 Direct Transmit (`FF 00` answers `6A 81`).
/// - ``combined`` (the default): both, so that a client can be tested against either path
///   with one reader; no single real reader answers both the PN532 frames and `FF C2`.
public struct ContactlessReaderProfile: Sendable, Hashable, CustomStringConvertible {
    /// The name, as the command line takes it.
    public var name: String
    /// Whether `FF 00 00 00 Lc D4 ...` reaches an emulated PN532 (ACR122U Direct Transmit).
    public var supportsDirectTransmit: Bool
    /// Whether the PC/SC 2.02 transparent session commands (`FF C2`) are answered.
    public var supportsTransparentExchange: Bool
    /// The firmware version `FF 00 48 00 00` answers (ASCII, without status word, as the
    /// ACR122U does); nil: that command and the LED and buzzer commands answer `6A 81`.
    public var firmwareVersion: String?

    /// Creates a profile.
    public init(
        name: String, supportsDirectTransmit: Bool, supportsTransparentExchange: Bool, firmwareVersion: String?
    ) {
        self.name = name
        self.supportsDirectTransmit = supportsDirectTransmit
        self.supportsTransparentExchange = supportsTransparentExchange
        self.firmwareVersion = firmwareVersion
    }

    /// An ACS ACR122U with firmware 2.07 (ACR122U API 2.04).
    public static let acr122u = ContactlessReaderProfile(
        name: "acr122u", supportsDirectTransmit: true, supportsTransparentExchange: false,
        firmwareVersion: "ACR122U207")

    /// A PC/SC Part 3 v2.02 reader with a transparent session and no vendor commands.
    public static let pcsc202 = ContactlessReaderProfile(
        name: "pcsc202", supportsDirectTransmit: false, supportsTransparentExchange: true, firmwareVersion: nil)

    /// Both pass-throughs, with the ACR122U's vendor commands.
    public static let combined = ContactlessReaderProfile(
        name: "combined", supportsDirectTransmit: true, supportsTransparentExchange: true,
        firmwareVersion: "ACR122U207")

    /// Every predefined profile, in the order the command line lists them.
    public static let all: [ContactlessReaderProfile] = [.combined, .acr122u, .pcsc202]

    /// The predefined profile named `name`.
    public static func named(_ name: String) -> ContactlessReaderProfile? {
        all.first { $0.name == name.lowercased() }
    }

    public var description: String { name }
}
