import NFCSession
import Testing

@testable import PCSCReader

/// Profile choice from pcscd's reader names (CCID driver names, as pcsc_scan prints them), and
/// `pcsc:` URLs.
@Suite("Reader profiles and pcsc: URLs")
struct ProfileAndURLTests {
    @Test(
        "profiles are chosen from the reader name",
        arguments: [
            ("ACS ACR122U PICC Interface 00 00", PCSCReaderProfile.acr122u),
            ("ACS ACR 38U-CCID 00 00", .generic),
            ("Virtual PCD 00 01", .acr122u),
            ("ACS ACR1252 1S CL Reader [ACR1252 1S CL Reader(1)] 00 00", .pcscTransparent),
            ("ACS ACR1255U-J1 PICC Reader 00 00", .pcscTransparent),
            ("Identiv uTrust 3700 F CL Reader [uTrust 3700 F CL Reader] 00 00", .pcscTransparent),
            ("Identiv CLOUD 3700 F Contactless Reader 00 00", .pcscTransparent),
            ("HID Global OMNIKEY 5022 Smart Card Reader [OMNIKEY 5022 Smart Card Reader] 00 00", .pcscTransparent),
            ("HID Global OMNIKEY 5422 Smartcard Reader [OMNIKEY 5422 Smartcard Reader] 01 00", .pcscTransparent),
            ("HID Global OMNIKEY 5427 CK [OMNIKEY 5427 CK] 01 00", .generic),
            ("SCM Microsystems Inc. SCL011 Contactless Reader 00 00", .generic),
            ("Gemalto PC Twin Reader 00 00", .generic),
        ])
    func detection(name: String, expected: PCSCReaderProfile) {
        #expect(PCSCReaderProfile.detect(readerName: name) == expected)
    }

    @Test("capabilities: one target per reader; raw commands and FAST_READ only through a pass-through")
    func capabilities() {
        for profile in PCSCReaderProfile.allCases {
            #expect(!profile.capabilities.detectsMultipleTargets)
            #expect(profile.capabilities.supportsISODEP)
        }
        #expect(!PCSCReaderProfile.generic.capabilities.supportsRawCommands)
        #expect(!PCSCReaderProfile.generic.capabilities.supportsFastRead)
        #expect(PCSCReaderProfile.acr122u.capabilities.supportsRawCommands)
        #expect(PCSCReaderProfile.acr122u.capabilities.supportsFastRead)
        #expect(PCSCReaderProfile.pcscTransparent.capabilities.supportsFastRead)
        // The largest FAST_READ answer plus its CRC fits the profile's frames.
        #expect(PCSCReaderProfile.acr122u.capabilities.maximumFrameSize + 2 + 3 <= 255)
        #expect(
            PCSCReaderProfile.pcscTransparent.capabilities.maximumFrameSize <= TransparentExchange.maximumFrameLength)
        #expect(PCSCReaderProfile.acr122u.capabilities.maximumFrameSize % 4 == 0)
        #expect(PCSCReaderProfile.pcscTransparent.capabilities.maximumFrameSize % 4 == 0)
    }

    @Test("profile names")
    func names() {
        #expect(PCSCReaderProfile(name: "ACR122U") == .acr122u)
        #expect(PCSCReaderProfile(name: "pcsc-transparent") == .pcscTransparent)
        #expect(PCSCReaderProfile(name: "generic") == .generic)
        #expect(PCSCReaderProfile(name: "transparent") == nil)
    }

    @Test(
        "URLs parse",
        arguments: [
            ("pcsc:", PCSCReaderURL(selector: .first)),
            ("PCSC:", PCSCReaderURL(selector: .first)),
            ("pcsc:0", PCSCReaderURL(selector: .index(0))),
            ("pcsc:12", PCSCReaderURL(selector: .index(12))),
            ("pcsc:ACS", PCSCReaderURL(selector: .name("ACS"))),
            (
                "pcsc:ACS ACR122U PICC Interface 00 00",
                PCSCReaderURL(selector: .name("ACS ACR122U PICC Interface 00 00"))
            ),
            (
                "pcsc:Virtual%20PCD%2000%2001?profile=acr122u&exclusive=1",
                PCSCReaderURL(selector: .name("Virtual PCD 00 01"), profile: .acr122u, exclusive: true)
            ),
            ("pcsc:?profile=Generic&exclusive=no", PCSCReaderURL(selector: .first, profile: .generic)),
            ("pcsc:1?exclusive=true", PCSCReaderURL(selector: .index(1), exclusive: true)),
            ("pcsc:%31", PCSCReaderURL(selector: .index(1))),
            ("pcsc:ACS?apdu=Extended", PCSCReaderURL(selector: .name("ACS"), apduLength: .extended)),
            ("pcsc:?apdu=auto", PCSCReaderURL(selector: .first)),
        ])
    func parsing(text: String, expected: PCSCReaderURL) throws {
        #expect(try PCSCReaderURL(parsing: text) == expected)
    }

    @Test(
        "bad URLs name the problem",
        arguments: [
            ("sim:ntag215", "pcsc:NAME"), ("pcsc:x?profile=fast", "profile \"fast\""),
            ("pcsc:x?exclusive=maybe", "exclusive=maybe"), ("pcsc:x?colour=red", "unknown option \"colour\""),
            ("pcsc:x?profile=generic&profile=acr122u", "given twice"), ("pcsc:x?exclusive", "has no value"),
            ("pcsc:%zz", "two hex digits"), ("pcsc:x?apdu=long", "apdu=long"), ("pcsc:%FF", "not UTF-8"),
            ("pcsc:x?", "has no value"),
        ])
    func errors(text: String, fragment: String) {
        let error = readerError { _ = try PCSCReaderURL(parsing: text) }
        #expect(error?.code == .invalidParameter)
        #expect(error?.reason.contains(fragment) == true, "\(error?.reason ?? "no error")")
    }

    @Test("canonical form round-trips")
    func roundTrip() throws {
        for text in [
            "pcsc:", "pcsc:3", "pcsc:Virtual%20PCD%2000%2001?profile=acr122u&exclusive=1",
            "pcsc:ACS?profile=pcsc-transparent", "pcsc:2?exclusive=1&apdu=short",
        ] {
            let url = try PCSCReaderURL(parsing: text)
            #expect(url.description == text)
            #expect(try PCSCReaderURL(parsing: url.description) == url)
        }
    }

    let readers = ["ACS ACR122U PICC Interface 00 00", "Virtual PCD 00 00", "Virtual PCD 00 01"]

    @Test("resolving against pcscd's list")
    func resolving() throws {
        #expect(try PCSCReaderURL(selector: .first).resolve(among: readers) == readers[0])
        #expect(try PCSCReaderURL(selector: .index(2)).resolve(among: readers) == readers[2])
        #expect(try PCSCReaderURL(selector: .name("ACS")).resolve(among: readers) == readers[0])
        #expect(try PCSCReaderURL(selector: .name("virtual pcd 00 01")).resolve(among: readers) == readers[2])
        #expect(try PCSCReaderURL(selector: .name("Virtual PCD 00 00")).resolve(among: readers) == readers[1])
        let ambiguous = readerError { _ = try PCSCReaderURL(selector: .name("Virtual")).resolve(among: readers) }
        #expect(ambiguous?.code == .invalidParameter)
        #expect(ambiguous?.reason.contains("Virtual PCD 00 00; Virtual PCD 00 01") == true)
        let missing = readerError { _ = try PCSCReaderURL(selector: .name("OMNIKEY")).resolve(among: readers) }
        #expect(missing?.code == .readerUnavailable)
        #expect(missing?.reason.contains("0: ACS ACR122U PICC Interface 00 00; 1: Virtual PCD 00 00") == true)
        #expect(
            readerError { _ = try PCSCReaderURL(selector: .index(3)).resolve(among: readers) }?.code
                == .readerUnavailable)
        let none = readerError { _ = try PCSCReaderURL(selector: .first).resolve(among: []) }
        #expect(none?.code == .readerUnavailable)
        #expect(none?.reason.contains("blacklist pn533_usb") == true)
    }

    @Test("reader multi-strings")
    func multiString() {
        #expect(ReaderNameList.parse(Array("A\u{0}B C\u{0}\u{0}".utf8)) == ["A", "B C"])
        #expect(ReaderNameList.parse(Array("A\u{0}".utf8)) == ["A"])
        #expect(ReaderNameList.parse(Array("A".utf8)) == ["A"])
        #expect(ReaderNameList.parse([0]) == [])
        #expect(ReaderNameList.parse([]) == [])
        #expect(ReaderNameList.parse(Array("A\u{0}\u{0}B\u{0}".utf8)) == ["A"])
        #expect(ReaderNameList.parse([0x41, 0xFF, 0x00, 0x00]) == ["A\u{FFFD}"])
    }

    @Test("card events from reader states")
    func cardEvents() {
        func event(_ bits: UInt32, atr: [UInt8] = [0x3B]) -> PCSCCardEvent {
            PCSCReaders.cardEvent(
                PCSCReaderState(readerName: "R", currentState: 0, eventState: bits, atr: atr), readerName: "R")
        }
        #expect(event(0x0003_0012).presence == .empty)
        #expect(event(0x0003_0012).eventCount == 3)
        #expect(event(0x0003_0012).atr == [])
        #expect(event(0x0004_0022).presence == .present)
        #expect(event(0x0004_0022).atr == [0x3B])
        #expect(event(0x0004_0222).presence == .mute)
        #expect(event(0x0000_0006).presence == .readerRemoved)
        #expect(event(0x0000_000A).presence == .readerRemoved)
    }
}
