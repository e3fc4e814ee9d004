import HexText
import NDEF
import TestSupport

/// Messages built with our typed views for the reverse direction of the ndeflib cross-check.
enum CrossCheckCorpus {
    static func messages() throws -> [(String, [NFCNDEFPayload])] {
        var out: [(String, [NFCNDEFPayload])] = []
        func add(_ name: String, _ records: NFCNDEFPayload...) { out.append((name, records)) }
        func addMessage(_ name: String, _ message: NFCNDEFMessage) { out.append((name, message.records)) }

        // Text RTD.
        add("text-utf8-en", try TextRecord(text: "Hello World").makeRecord())
        add("text-utf8-ja", try TextRecord(text: "こんにちは", language: "ja").makeRecord())
        add("text-utf8-long", try TextRecord(text: String(repeating: "é", count: 400), language: "fr").makeRecord())
        add("text-utf8-language63", try TextRecord(text: "x", language: String(repeating: "a", count: 63)).makeRecord())
        add("text-utf16-en", try TextRecord(text: "Hello", encoding: .utf16).makeRecord())
        add("text-utf16-ja", try TextRecord(text: "日本語", language: "ja", encoding: .utf16).makeRecord())
        add("text-utf16-emoji", try TextRecord(text: "a\u{1F600}b", language: "en", encoding: .utf16).makeRecord())
        add("text-empty-language", try TextRecord(text: "no language", language: "").makeRecord())
        add("text-empty-text", try TextRecord(text: "", language: "en-GB").makeRecord())

        // URI RTD: one URI for every identifier code, abbreviated by the builder.
        for (code, prefix) in URIRecord.prefixes.enumerated() {
            let suffix = prefix == "tel:" ? "+15551234" : "example.org/a?b=c"
            let uri = code == 0 ? "geo:52.5,13.4" : prefix + suffix
            add("uri-code-\(Hex.encode([UInt8(code)]))", try URIRecord(uri: uri).makeRecord())
        }
        add("uri-iri", try URIRecord(uri: "https://www.hääyö.com/~user/").makeRecord())
        add("uri-rfu-code", NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x24] + Array("abc".utf8)))

        // Smart Poster RTD.
        add("smartposter-uri", try SmartPosterRecord(uri: "https://nfc-forum.org").makeRecord())
        let titles = [TextRecord(text: "Manual", language: "en"), TextRecord(text: "Handbuch", language: "de")]
        for action in [SmartPosterRecord.Action.execute, .save, .open] {
            let poster = SmartPosterRecord(uri: "https://example.com/m.pdf", titles: titles, action: action)
            add("smartposter-action-\(action)", try poster.makeRecord())
        }
        let full = SmartPosterRecord(
            uri: "tel:+4930123456",
            titles: [TextRecord(text: "Call us", language: "en", encoding: .utf16)],
            action: .execute,
            size: 0x0102_0304,
            mediaType: "audio/mpeg",
            icons: [SmartPosterRecord.Icon(mediaType: "image/png", data: Array(0..<64))]
        )
        add("smartposter-full", try full.makeRecord())
        add(
            "smartposter-reserved-action",
            try SmartPosterRecord(uri: "https://example.com", action: .init(rawValue: 5)).makeRecord())

        // Device Information RTD.
        add("device-info-min", try DeviceInformationRecord(manufacturer: "ACME", model: "W1").makeRecord())
        let device = DeviceInformationRecord(
            manufacturer: "Sony", model: "RC-S380", deviceName: "Desk reader",
            uuid: Array(0x10..<0x20), firmwareVersion: "1.02",
            extraFields: [.init(type: 0xFF, data: Array("vendor".utf8)), .init(type: 7, data: [1, 2])]
        )
        add("device-info-full", try device.makeRecord())

        // Wi-Fi Simple Configuration.
        add("wifi-wpa2", try WiFiCredentialRecord(ssid: "HomeNetwork", networkKey: "secret-pass").makeRecord())
        add("wifi-open", try WiFiCredentialRecord(ssid: "Cafe").makeRecord())
        add(
            "wifi-mixed",
            try WiFiCredentialRecord(
                ssid: "Old", networkKey: "0123456789", authentication: .wpaWPA2Personal, encryption: .aesTKIP
            ).makeRecord())
        let two = try WiFiCredentialRecord(credentials: [
            try .init(ssid: "First", networkKey: "one-key-1"),
            try .init(ssid: "Second", networkKey: "two-key-2", authentication: .wpa2Enterprise),
        ])
        add("wifi-two-credentials", try two.makeRecord())
        let bare = try WiFiCredentialRecord(
            credentials: [try .init(ssid: Array("Bare".utf8), networkKey: Array("k-e-y-1234".utf8))],
            version: nil, version2: nil)
        add("wifi-credential-only", try bare.makeRecord())

        // Bluetooth BR/EDR and LE OOB.
        let address = try Self.address("00:0c:78:51:c4:06")
        let headset = try BluetoothOOBRecord(
            address: address, name: "Headset", classOfDevice: 0x24_0404,
            serviceUUIDs: [BluetoothServiceUUID(uuid16: 0x110B), BluetoothServiceUUID(uuid16: 0x111E)],
            hashC: Array(0..<16), randomizerR: Array(16..<32))
        add("bluetooth-full", try headset.makeRecord())
        add("bluetooth-address-only", try BluetoothOOBRecord(address: address).makeRecord())
        let wide = try BluetoothOOBRecord(
            address: address, serviceUUIDs: [try serviceUUID("12345678")], serviceUUIDsComplete: false,
            hashC256: Array(32..<48), randomizerR256: Array(48..<64))
        add("bluetooth-uuid32-256", try wide.makeRecord())
        let uuid128 = try serviceUUID("12345678-1234-5678-9abc-def012345678")
        add("bluetooth-uuid128", try BluetoothOOBRecord(address: address, serviceUUIDs: [uuid128]).makeRecord())
        let le = try BluetoothLowEnergyOOBRecord(
            address: try Self.address("c0:ff:ee:00:00:01"), addressType: .random, role: .peripheralPreferred,
            name: "Heart Rate", appearance: 832, flags: 6, securityManagerTK: Array(0..<16),
            confirmationValue: Array(16..<32), randomValue: Array(32..<48))
        add("bluetooth-le-full", try le.makeRecord())
        let leMinimal = try BluetoothLowEnergyOOBRecord(address: address, role: .centralOnly)
        add("bluetooth-le-min", try leMinimal.makeRecord())
        add(
            "bluetooth-le-reserved-role",
            try BluetoothLowEnergyOOBRecord(address: address, role: .init(rawValue: 7)).makeRecord())

        // Connection Handover.
        add("handover-select-empty", try HandoverSelectRecord().makeRecord())
        let select = try HandoverSelectRecord(
            version: 0x12,
            carriers: [AlternativeCarrier(powerState: .activating, dataReference: "c", auxiliaryDataReferences: ["a"])],
            error: HandoverSelectError(reason: 2, data: [0, 0, 0x10, 0]))
        add("handover-select-error", try select.makeRecord())
        addMessage("handover-select-bluetooth", try HandoverSelectRecord.message(carrier: headset))
        let wifi = try WiFiCredentialRecord(ssid: "Guest", networkKey: "guest-pass")
        addMessage("handover-select-wifi", try HandoverSelectRecord.message(carrier: wifi, reference: "w"))
        let request = try HandoverRequestRecord(
            collisionResolution: 0xBEEF, carriers: [AlternativeCarrier(powerState: .active, dataReference: "h")])
        var carrier = try HandoverCarrierRecord(mediaType: "application/vnd.wfa.wsc").makeRecord()
        carrier.identifier = Array("h".utf8)[...]
        add("handover-request-carrier", try request.makeRecord(), carrier)

        let hint = try ExternalRecord(type: "example.com:hint", data: Array("extra".utf8)).makeRecord()
        let withExtra = try HandoverSelectRecord(
            carriers: [AlternativeCarrier(powerState: .unknown, dataReference: "0")], extraRecords: [hint])
        add("handover-select-extra-record", try withExtra.makeRecord())
        add(
            "handover-select-error-carrier",
            try HandoverSelectRecord(error: HandoverSelectError(reason: 3, data: [200])).makeRecord())
        add(
            "bluetooth-le-short-name",
            try BluetoothLowEnergyOOBRecord(
                address: address, role: .peripheralOnly, name: "Short", nameIsShortened: true
            )
            .makeRecord())
        let utf8Device = DeviceInformationRecord(
            manufacturer: "Société Générale", model: "Modèle ✓", deviceName: "名前", firmwareVersion: "v1.0-β")
        add("device-info-utf8", try utf8Device.makeRecord())
        add("text-utf16-leading-bom-character", try TextRecord(text: "\u{FEFF}abc", encoding: .utf16).makeRecord())

        // Generic records.
        add("media-text", try MediaRecord(mediaType: "text/plain", text: "hello").makeRecord())
        add("media-png", try MediaRecord(mediaType: "image/png", data: Array(0..<255) + [255]).makeRecord())
        add("external", try ExternalRecord(type: "example.com:thing", data: Array("data".utf8)).makeRecord())
        add("aar", try AndroidApplicationRecord(package: "com.example.app").makeRecord())
        add("absolute-uri", try AbsoluteURIRecord(uri: "https://example.com/type?1", data: [1, 2, 3]).makeRecord())
        add("unknown", NFCNDEFPayload(format: .unknown, payload: [0xDE, 0xAD]))
        add("empty", .empty)
        var generator = SeededRandom(seed: 0x5EED)
        for length in [0, 1, 255, 256, 65_535, 65_536] {
            let data = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            add(
                "media-random-\(length)",
                try MediaRecord(mediaType: "application/octet-stream", data: data).makeRecord())
        }
        var withIDs: [NFCNDEFPayload] = []
        for index in 0..<12 {
            var record = try TextRecord(text: "record \(index)").makeRecord()
            record.identifier = Array("id\(index)".utf8)[...]
            withIDs.append(record)
        }
        out.append(("multi-ids", withIDs))
        return out
    }

    struct CorpusError: Error {
        var text: String
    }

    static func address(_ text: String) throws -> HardwareAddress {
        guard let address = HardwareAddress(text) else { throw CorpusError(text: text) }
        return address
    }

    static func serviceUUID(_ text: String) throws -> BluetoothServiceUUID {
        guard let uuid = BluetoothServiceUUID(text) else { throw CorpusError(text: text) }
        return uuid
    }
}
