import Foundation
import NDEF
import Testing

@Suite("Android application record (android.com:pkg)")
struct AndroidApplicationRecordTests {
    @Test("builds the record byte for byte")
    func builds() throws {
        let record = try AndroidApplicationRecord(package: "st.com:m24sr_discovery_democtrl").makeRecord()
        let expected =
            "d40f1f" + "616e64726f69642e636f6d3a706b67"
            + "73742e636f6d3a6d323473725f646973636f766572795f64656d6f6374726c"
        #expect(try messageHex(record) == expected)
    }

    @Test("matches the type name in any case")
    func matches() throws {
        let upper = try record(.nfcExternal, "Android.COM:PKG", "636f6d2e6578616d706c65")
        #expect(AndroidApplicationRecord.matches(upper))
        #expect(try AndroidApplicationRecord(parsing: upper).package == "com.example")
        #expect(!AndroidApplicationRecord.matches(try record(.nfcWellKnown, "android.com:pkg", "")))
        #expect(!AndroidApplicationRecord.matches(try record(.nfcExternal, "android.com:pk", "")))
    }

    @Test("rejects an empty or non-UTF-8 package name")
    func rejects() throws {
        #expect(throws: NDEFError(.invalidPayload, "")) {
            try AndroidApplicationRecord(parsing: try record(.nfcExternal, "android.com:pkg", ""))
        }
        let error = ndefError {
            _ = try AndroidApplicationRecord(parsing: try record(.nfcExternal, "android.com:pkg", "636fff"))
        }
        #expect(error?.code == .invalidPayload)
        #expect(error?.offset == 2)
        #expect(throws: NDEFError(.invalidValue, "")) { try AndroidApplicationRecord(package: "").makeRecord() }
        #expect(throws: NDEFError(.wrongRecordType, "")) {
            try AndroidApplicationRecord(parsing: try record(.nfcExternal, "example.com:pkg", "61"))
        }
    }

    static let values = ["com.example.app", "st.com:m24sr_discovery_democtrl", "org.\u{E9}t\u{E9}"]

    @Test("round trips and truncations", arguments: values)
    func roundTrips(package: String) throws {
        let value = AndroidApplicationRecord(package: package)
        let record = try value.makeRecord()
        #expect(try AndroidApplicationRecord(parsing: record) == value)
        #expect(try AndroidApplicationRecord(parsing: try decodedRecord(try messageHex(record))) == value)
        #expect(try checkTruncations(AndroidApplicationRecord.self, record) >= 1)
    }

    @Test("JSON value is {\"package\": ...}", arguments: values)
    func json(package: String) throws {
        let value = AndroidApplicationRecord(package: package)
        #expect(try jsonKeys(value) == ["package"])
        #expect(try jsonObject(value)["package"] as? String == package)
        #expect(try jsonRoundTrip(value) == value)
    }

    @Test("description")
    func description() {
        #expect(AndroidApplicationRecord(package: "com.example").description == "Android application com.example")
    }
}
