#!/usr/bin/env python3
"""Differential test of the NDEF codec against ndeflib (nfcpy's NDEF library).

Used by Scripts/crosscheck; needs ndeflib 0.3.3 (`pip install ndeflib==0.3.3`).

    crosscheck.py generate DIR   writes DIR/forward/NAME.ndef (messages encoded by ndeflib)
                                 and NAME.expect.json (ndeflib's decoding, in our JSON keys)
    crosscheck.py compare DIR    compares DIR/forward/NAME.ours.json (our decoding of each
                                 forward message, written by the Swift test CrossCheckTests)
                                 with the expectations, then decodes DIR/reverse/NAME.ndef
                                 (our encoder's output) with ndeflib and compares it with
                                 NAME.ours.json; writes DIR/report.json

Expectations use the keys of our JSON contract (`value` objects of the typed views), so a
comparison is: every key ndeflib gives a value for must hold the same value in ours. Where
ndeflib departs from the NFC Forum specifications the difference is listed in KNOWN with the
reason, reported, and not counted as a failure.
"""
import json
import os
import random
import sys
import uuid

import ndef
from ndef import bluetooth, handover, wifi

# ---------------------------------------------------------------------------------------------
# Known differences: where ndeflib 0.3.3 does not follow the specification and we do.
# Keys are case names (forward: "fwd/NAME", reverse: "rev/NAME"); values explain who is right.
# ---------------------------------------------------------------------------------------------
KNOWN = {
    "rev/text-utf16-en": (
        "ndeflib decodes UTF-16 text without a byte order mark as little-endian (Python's 'UTF-16' "
        "codec); Text RTD 1.0 section 3.2.1 says text without a BOM is big-endian, which we write."
    ),
    "rev/text-utf16-ja": "same as rev/text-utf16-en: BOM-less UTF-16 is big-endian (Text RTD 1.0, 3.2.1)",
    "rev/text-utf16-emoji": "same as rev/text-utf16-en: BOM-less UTF-16 is big-endian (Text RTD 1.0, 3.2.1)",
    "rev/text-empty-language": (
        "ndeflib refuses a language code of length 0; Text RTD 1.0 section 3.2.1 only bounds the "
        "length by the 6-bit field, and Android reads such records, so we accept them."
    ),
    "rev/uri-rfu-code": (
        "ndeflib (strict) refuses identifier codes 0x24-0xFF; URI RTD 1.0 section 3.2.2 says codes "
        "marked RFU SHALL be treated as 0x00 (no prefix), as we do."
    ),
    "rev/smartposter-reserved-action": (
        "ndeflib (strict) refuses action codes 3-255; Smart Poster RTD 1.0 section 3.3.3 marks them "
        "RFU and a reader keeps the poster usable, so we keep the raw code."
    ),
    "fwd/bt-uuid128-incomplete": (
        "ndeflib reads and writes a 128-bit service class UUID in Microsoft GUID byte order "
        "(uuid.bytes_le: the last 8 bytes not reversed); Bluetooth transmits UUIDs least significant "
        "byte first over all 16 bytes (Core Specification Vol 3 Part B 2.5.1, Supplement Part A 1.1), "
        "as we and Android's BluetoothUuid.parseUuidFrom do."
    ),
    "rev/bluetooth-uuid128": "same as fwd/bt-uuid128-incomplete: 128-bit UUIDs are all 16 bytes LSB first",
    "rev/smartposter-full": "its UTF-16 title has no BOM: big-endian (Text RTD 1.0, 3.2.1), as rev/text-utf16-en",
}

# ---------------------------------------------------------------------------------------------
# Mapping ndeflib's decoded records to our JSON vocabulary.
# ---------------------------------------------------------------------------------------------
AUTH_NAMES = {
    0x0001: "open", 0x0002: "wpa-personal", 0x0004: "shared", 0x0008: "wpa-enterprise",
    0x0010: "wpa2-enterprise", 0x0020: "wpa2-personal", 0x0022: "wpa-wpa2-personal",
}
ENCR_NAMES = {0x0001: "none", 0x0002: "wep", 0x0004: "tkip", 0x0008: "aes", 0x000C: "aes-tkip"}
ACTION_NAMES = {0: "execute", 1: "save", 2: "open"}
ROLE_NAMES = {0: "peripheral-only", 1: "central-only", 2: "peripheral-preferred", 3: "central-preferred"}
BASE_UUID_TAIL = "-0000-1000-8000-00805f9b34fb"


def tnf_and_type(record):
    """The TNF and TYPE field bytes of an ndeflib record."""
    return ndef.Record._encode_type(record.type)


def text_value(record):
    return {"text": record.text, "language": record.language, "encoding": record.encoding.lower()}


def wsc_credential(octets):
    cred = wifi.Credential.decode(octets)
    out = {}
    ssid = cred.get(0x1045)
    if ssid:
        try:
            out["ssid"] = ssid[0].decode("utf-8")
        except UnicodeDecodeError:
            out["ssidHex"] = ssid[0].hex()
    key = cred.get(0x1027)
    if key:
        try:
            out["networkKey"] = key[0].decode("utf-8")
        except UnicodeDecodeError:
            out["networkKeyHex"] = key[0].hex()
    auth = cred.get_attribute("authentication-type")
    if auth is not None:
        number = auth.value[0]
        out["authentication"] = AUTH_NAMES.get(number, number)
    encr = cred.get_attribute("encryption-type")
    if encr is not None:
        number = encr.value[0]
        out["encryption"] = ENCR_NAMES.get(number, number)
    mac = cred.get_attribute("mac-address")
    if mac is not None:
        out["macAddress"] = ":".join("%02x" % b for b in mac.value)
    index = cred.get_attribute("network-index")
    if index is not None:
        out["networkIndex"] = index.value
    return out


def wifi_value(record):
    creds = record.get(0x100E, [])
    out = wsc_credential(creds[0]) if creds else {}
    if len(creds) > 1:
        out["additionalCredentials"] = [wsc_credential(c) for c in creds[1:]]
    version = record.get_attribute("version-1")
    if version is not None:
        out["version"] = "%d.%d" % tuple(version.value)
    wfa = record.get_attribute("wfa-vendor-extension")
    if wfa is not None and wfa.get(0x00):
        out["version2"] = "%d.%d" % (wfa.get(0x00)[0][0] >> 4, wfa.get(0x00)[0][0] & 15)
    return out


def service_uuids(record):
    """ndeflib's reading of the service class UUID lists, written as ours (4 or 8 hex digits for
    16- and 32-bit UUIDs, the 8-4-4-4-12 form for 128-bit ones)."""
    texts = []
    for types, width in (((0x02, 0x03), 2), ((0x04, 0x05), 4), ((0x06, 0x07), 16)):
        octets = b"".join(record.get(t, b"") for t in types)
        for offset in range(0, len(octets), width):
            full = str(bluetooth.ServiceClass.decode(octets[offset:offset + width]).uuid)
            if width == 16:
                texts.append(full)
            else:
                assert full.endswith(BASE_UUID_TAIL), full
                texts.append(full[:8][-2 * width:])
    return sorted(texts)


def bluetooth_value(record):
    out = {"address": record.device_address.addr.lower()}
    if 0x09 in record or 0x08 in record:
        out["name"] = record.device_name
    if 0x0D in record:
        out["classOfDevice"] = record.device_class.cod
    uuids = service_uuids(record)
    if uuids:
        out["serviceUUIDs"] = uuids
    for key, prop in (("hashC", "simple_pairing_hash_192"), ("randomizerR", "simple_pairing_randomizer_192"),
                      ("hashC256", "simple_pairing_hash_256"), ("randomizerR256", "simple_pairing_randomizer_256")):
        value = getattr(record, prop)
        if value is not None:
            out[key] = value.to_bytes(16, "little").hex()
    return out


def bluetooth_le_value(record):
    out = {}
    address = record.device_address
    if address is not None:
        out["address"] = address.addr.lower()
        out["addressType"] = address.type
    if 0x1C in record:
        role = record[0x1C][0]
        out["role"] = ROLE_NAMES.get(role, role)
    if 0x09 in record or 0x08 in record:
        out["name"] = record.device_name
    if record.appearance is not None:
        out["appearance"] = record.appearance[0]
    if record.flags is not None:
        out["flags"] = record.flags[0]
    for key, prop in (("securityManagerTK", "security_manager_tk_value"),
                      ("confirmationValue", "secure_connections_confirmation_value"),
                      ("randomValue", "secure_connections_random_value")):
        value = getattr(record, prop)
        if value is not None:
            out[key] = value.to_bytes(16, "little").hex()
    return out


def carriers_value(record):
    out = []
    for ac in record.alternative_carriers:
        out.append({
            "powerState": ac.carrier_power_state,
            "dataReference": ac.carrier_data_reference,
            "auxiliaryDataReferences": list(ac.auxiliary_data_reference),
        })
    return out


def value_of(record):
    """(kind, value) of an ndeflib record in our vocabulary; value None when only the bytes count."""
    tnf, type_field = tnf_and_type(record)
    if isinstance(record, ndef.TextRecord):
        return "text", text_value(record)
    if isinstance(record, ndef.UriRecord):
        return "uri", {"uri": record.iri}
    if isinstance(record, ndef.SmartposterRecord):
        value = {"uri": record.resource.iri, "titles": [text_value(t) for t in record.title_records]}
        if record.action_records:
            code = record.action_records[0]._action
            value["action" if code in ACTION_NAMES else "actionCode"] = ACTION_NAMES.get(code, code)
        if record.resource_size is not None:
            value["size"] = record.resource_size
        if record.resource_type is not None:
            value["mediaType"] = record.resource_type
        value["icons"] = [{"mediaType": r.type, "dataHex": bytes(r.data).hex()} for r in record.icon_records]
        return "smartposter", value
    if isinstance(record, ndef.DeviceInformationRecord):
        value = {"manufacturer": record.vendor_name, "model": record.model_name}
        if record.unique_name is not None:
            value["deviceName"] = record.unique_name
        if record.uuid_string is not None:
            value["uuid"] = record.uuid_string
        if record.version_string is not None:
            value["firmwareVersion"] = record.version_string
        value["extraFields"] = [{"type": t, "dataHex": bytes(d).hex()} for t, d in record.undefined_data_elements]
        return "device-info", value
    if isinstance(record, wifi.WifiSimpleConfigRecord):
        return "wifi", wifi_value(record)
    if isinstance(record, bluetooth.BluetoothEasyPairingRecord):
        return "bluetooth", bluetooth_value(record)
    if isinstance(record, bluetooth.BluetoothLowEnergyRecord):
        return "bluetooth-le", bluetooth_le_value(record)
    if isinstance(record, handover.HandoverSelectRecord):
        value = {"version": record.version_string, "carriers": carriers_value(record)}
        if record.error is not None:
            value["error"] = {"reason": record.error.error_reason, "dataHex": error_data_hex(record.error)}
        return "handover-select", value
    if isinstance(record, handover.HandoverRequestRecord):
        value = {"version": record.version_string, "carriers": carriers_value(record)}
        if record.collision_resolution_number is not None:
            value["collisionResolution"] = record.collision_resolution_number
        return "handover-request", value
    if isinstance(record, handover.HandoverCarrierRecord):
        ctf, ctype = ndef.Record._encode_type(record.carrier_type)
        return "handover-carrier", {
            "carrierTNF": ctf, "carrierType": ctype.decode("ascii"), "carrierDataHex": bytes(record.carrier_data).hex()}
    data = bytes(record.data).hex()
    if tnf == 1 and type_field == b"Hc":
        # ndeflib knows Hc only after a Handover Request record; it is a global well-known type
        # (Connection Handover 1.3, 6.4), so read it with ndeflib's own class wherever it is.
        return value_of(handover.HandoverCarrierRecord._decode_payload(bytes(record.data), "strict"))
    if tnf == 2:
        return "media", {"mediaType": type_field.decode("ascii"), "dataHex": data}
    if tnf == 3:
        return "absolute-uri", {"uri": type_field.decode("ascii"), "dataHex": data}
    if tnf == 4:
        if type_field.lower() == b"android.com:pkg":
            return "aar", {"package": bytes(record.data).decode("utf-8")}
        return "external", {"type": type_field.decode("ascii"), "dataHex": data}
    return None, None


def error_data_hex(error):
    """The error data of an ndeflib error record as transmitted (Connection Handover 1.3, 6.3)."""
    reason, data = error.error_reason, error.error_data
    if reason in (1, 3):
        return "%02x" % data
    if reason == 2:
        return "%08x" % data
    return bytes(data).hex()


def record_expectation(record):
    tnf, type_field = tnf_and_type(record)
    kind, value = value_of(record)
    entry = {
        "tnf": tnf,
        "typeHex": type_field.hex(),
        "idHex": record.name.encode("latin").hex(),
        "kind": kind,
    }
    if value is not None:
        entry["value"] = value
    return entry


# ---------------------------------------------------------------------------------------------
# The forward corpus: messages ndeflib encodes.
# ---------------------------------------------------------------------------------------------
def corpus():
    rng = random.Random(20240611)
    cases = {}

    def add(name, *records):
        cases[name] = list(records)

    # Text RTD: languages, encodings, lengths.
    texts = [
        ("en", "Hello World"), ("de", "Grüße aus Köln"), ("ja", "こんにちは世界"), ("ru-RU", "Привет"),
        ("zh-Hans-CN", "你好"), ("en-US", ""), ("ar", "مرحبا"), ("x-" + "a" * 61, "long language tag"),
        ("fr", "emoji \U0001F600 \U0001F4A9"), ("en", "x" * 300),
    ]
    for index, (language, text) in enumerate(texts):
        for encoding in ("UTF-8", "UTF-16"):
            add("text-%02d-%s" % (index, encoding.lower()), ndef.TextRecord(text, language, encoding))
    # URI RTD: every prefix code.
    for code, prefix in enumerate(ndef.UriRecord._prefix_strings):
        suffix = "+15551234" if prefix in ("tel:",) else "example.com/path?q=1"
        add("uri-prefix-%02x" % code, ndef.UriRecord(prefix + suffix))
    add("uri-iri", ndef.UriRecord("https://www.hääyö.com/~user/päth"))
    add("uri-long", ndef.UriRecord("https://example.com/" + "a" * 400))
    add("uri-empty", ndef.UriRecord(""))
    # Smart posters.
    add("sp-uri-only", ndef.SmartposterRecord("https://nfc-forum.org"))
    add("sp-titles", ndef.SmartposterRecord("https://nfc-forum.org", {"en": "NFC Forum", "de": "NFC Forum DE"}))
    for action in ("exec", "save", "edit"):
        add("sp-action-" + action, ndef.SmartposterRecord("tel:+1234", "Call", action))
    add("sp-full", ndef.SmartposterRecord(
        "https://example.com/file.pdf", {"en": "Manual", "fr": "Manuel"}, "save",
        {"image/png": b"\x89PNG\r\n\x1a\n" + bytes(range(40))}, 123456, "application/pdf"))
    add("sp-video-icon", ndef.SmartposterRecord(
        "https://example.com", "Clip", None, {"video/mp4": bytes(range(100))}))
    # Device information.
    add("di-min", ndef.DeviceInformationRecord("ACME", "Widget"))
    add("di-full", ndef.DeviceInformationRecord(
        "Sony", "RC-S380", "Reader 1", "123e4567-e89b-12d3-a456-426655440000", "1.02"))
    extra = ndef.DeviceInformationRecord("ACME", "Widget", None, None, "2.0")
    extra.add_undefined_data_element(0xFF, b"vendor")
    extra.add_undefined_data_element(5, b"\x00\x01")
    add("di-extra", extra)
    # Wi-Fi Simple Configuration.
    for index, (ssid, key, auth, encr) in enumerate([
        (b"HomeNetwork", b"secret-pass", "WPA2-Personal", "AES"),
        (b"Cafe", b"", "Open", "None"),
        (b"Old", b"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "WPA-Personal", "TKIP"),
        (b"\xff\xfeBinary", b"\x01\x02", "WPA2-Enterprise", "AES"),
    ]):
        add("wifi-%d" % index, wifi_record(ssid, key, auth, encr, index % 2 == 0))
    # Bluetooth BR/EDR.
    ep = bluetooth.BluetoothEasyPairingRecord("01:02:03:04:05:06")
    add("bt-address-only", ep)
    ep = bluetooth.BluetoothEasyPairingRecord("00:0C:78:51:C4:06")
    ep.device_name = "Headset"
    ep.device_class = 0x240404
    ep.add_service_class(0x110B, complete=True)
    ep.add_service_class(0x111E, complete=True)
    ep.simple_pairing_hash_192 = 0x0102030405060708090A0B0C0D0E0F10
    ep.simple_pairing_randomizer_192 = 0x1112131415161718191A1B1C1D1E1F20
    add("bt-full", ep)
    ep = bluetooth.BluetoothEasyPairingRecord("AA:BB:CC:DD:EE:FF")
    ep.add_service_class("12345678-1234-5678-1234-56789abcdef0")
    ep.add_service_class(0x12345678)
    ep.simple_pairing_hash_256 = 0xA1A2A3A4A5A6A7A8A9AAABACADAEAFB0
    ep.simple_pairing_randomizer_256 = 0xB1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0
    add("bt-uuid128-incomplete", ep)
    # Bluetooth LE.
    le = bluetooth.BluetoothLowEnergyRecord()
    le.device_address = ("11:22:33:44:55:66", "random")
    le.role_capabilities = "Peripheral"
    add("ble-min", le)
    le = bluetooth.BluetoothLowEnergyRecord()
    le.device_address = "C0:FF:EE:00:00:01"
    le.role_capabilities = "Central/Peripheral"
    le.device_name = "Heart Rate"
    le.appearance = 832
    le.flags = 6
    le.security_manager_tk_value = 0x00112233445566778899AABBCCDDEEFF
    le.secure_connections_confirmation_value = 0x0F0E0D0C0B0A09080706050403020100
    le.secure_connections_random_value = 0xFFEEDDCCBBAA99887766554433221100
    add("ble-full", le)
    # Connection handover.
    add("hs-empty", handover.HandoverSelectRecord("1.3"))
    add("hs-one", handover.HandoverSelectRecord("1.3", None, ("active", "0")))
    hs = handover.HandoverSelectRecord("1.2", (1, 16), ("activating", "c", "a1", "a2"))
    add("hs-error-aux", hs)
    hs = handover.HandoverSelectRecord("1.2", (2, 4096), ("inactive", "w"))
    add("hs-error-permanent", hs)
    carrier = bluetooth.BluetoothEasyPairingRecord("01:BF:88:80:07:03")
    carrier.name = "0"
    carrier.device_name = "Speaker"
    add("hs-bluetooth-message", handover.HandoverSelectRecord("1.3", None, ("active", "0")), carrier)
    wsc = wifi_record(b"Guest", b"guest-pass", "WPA2-Personal", "AES", True)
    wsc.name = "w"
    add("hs-wifi-message", handover.HandoverSelectRecord("1.2", None, ("unknown", "w")), wsc)
    add("hr-one", handover.HandoverRequestRecord("1.2", 0x1234, ("active", "0")))
    hr = handover.HandoverRequestRecord("1.3", 0xFFFF, ("active", "b"), ("inactive", "w", "x"))
    hc = handover.HandoverCarrierRecord("application/vnd.wfa.wsc", b"\x01\x02", "w")
    add("hr-hc-message", hr, hc)
    add("hc-media", handover.HandoverCarrierRecord("application/vnd.bluetooth.ep.oob"))
    add("hc-external", handover.HandoverCarrierRecord("urn:nfc:ext:example.com:carrier", b"cfg"))
    add("hc-wellknown", handover.HandoverCarrierRecord("urn:nfc:wkt:x", b""))
    add("hs-error-carrier", handover.HandoverSelectRecord("1.3", (3, 200), ("active", "x")))
    hs = handover.HandoverSelectRecord("1.3", None, ("active", "0"))
    hs.unknown_records.append(ndef.Record("urn:nfc:ext:example.com:hint", None, b"extra"))
    add("hs-extra-record", hs)
    add("hr-v11-no-cr", handover.HandoverRequestRecord("1.1", None, ("active", "0")))
    le = bluetooth.BluetoothLowEnergyRecord((0x1B, b"\x01\x02\x03\x04\x05\x06\x00"), (0x1C, b"\x02"),
                                            (0x08, "Short".encode()))
    add("ble-short-name", le)
    add("di-utf8", ndef.DeviceInformationRecord("Société Générale", "Modèle ✓", "名前", None, "v1.0-β"))
    # Generic records: media, external, absolute URI, AAR, unknown, empty.
    add("mime-parameters", ndef.Record("text/plain; charset=utf-8", None, "grüße".encode()))
    add("external-upper-case", ndef.Record("urn:nfc:ext:Example.COM:Thing", None, b"x"))
    add("aar-upper-case", ndef.Record("urn:nfc:ext:Android.com:PKG", None, b"com.example.upper"))
    add("latin-id", ndef.Record("text/plain", b"\xe9t\xe9", b"id"))
    add("long-type", ndef.Record("urn:nfc:ext:" + "a" * 200 + ".com:" + "b" * 50, None, b""))
    add("sp-binary-icon-name", ndef.SmartposterRecord("urn:nfc:sn:x", {"en-US": "US", "en-GB": "GB"}))
    add("mime-text", ndef.Record("text/plain", None, b"hello"))
    add("mime-json", ndef.Record("application/json", "id1", b'{"a": 1}'))
    add("mime-vcard", ndef.Record("text/vcard", None, b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\n"))
    add("external", ndef.Record("urn:nfc:ext:example.com:thing", "x", b"payload"))
    add("aar", ndef.Record("urn:nfc:ext:android.com:pkg", None, b"com.example.app"))
    add("absolute-uri", ndef.Record("https://example.com/schema#v1", None, b"\x00\x01"))
    add("unknown", ndef.Record("unknown", "u", b"\xde\xad\xbe\xef"))
    add("empty", ndef.Record())
    for length in (0, 1, 254, 255, 256, 257, 1000, 70000):
        add("random-%d" % length, ndef.Record("application/octet-stream", None,
                                               bytes(rng.randrange(256) for _ in range(length))))
    # Multi-record messages (no chunks).
    add("multi-mixed", ndef.UriRecord("https://example.com"), ndef.TextRecord("Example", "en"),
        ndef.Record("urn:nfc:ext:android.com:pkg", None, b"com.example"),
        ndef.Record("image/png", "icon", bytes(range(256)) * 2))
    add("multi-ids", *[ndef.Record("text/plain", "r%d" % i, ("record %d" % i).encode()) for i in range(20)])
    add("multi-empty-and-unknown", ndef.Record(), ndef.Record("unknown", None, b"x"), ndef.Record())
    records = []
    for i in range(40):
        kind = rng.randrange(4)
        if kind == 0:
            records.append(ndef.TextRecord("t%d" % i, rng.choice(["en", "de", "fr-CA"]), rng.choice(["UTF-8", "UTF-16"])))
        elif kind == 1:
            records.append(ndef.UriRecord(rng.choice(ndef.UriRecord._prefix_strings) + "x%d" % i))
        elif kind == 2:
            records.append(ndef.Record("application/x-test", "", bytes(rng.randrange(256) for _ in range(rng.randrange(600)))))
        else:
            records.append(ndef.Record("urn:nfc:ext:example.org:t%d" % i, "", b"data"))
    add("multi-random", *records)
    return cases


def wifi_record(ssid, key, auth, encr, with_versions):
    cred = wifi.Credential()
    cred.set_attribute("network-index", 1)
    cred.set_attribute("ssid", ssid)
    cred.set_attribute("authentication-type", auth)
    cred.set_attribute("encryption-type", encr)
    cred.set_attribute("network-key", key)
    cred.set_attribute("mac-address", b"\xff" * 6)
    record = wifi.WifiSimpleConfigRecord()
    if with_versions:
        record.set_attribute("version-1", 1, 0)
    record.set_attribute("credential", cred)
    if with_versions:
        record.set_attribute("wfa-vendor-extension", wifi.WifiAllianceVendorExtension((0, b"\x20")))
    return record


def generate(directory):
    forward = os.path.join(directory, "forward")
    os.makedirs(forward, exist_ok=True)
    for name, records in sorted(corpus().items()):
        octets = b"".join(ndef.message_encoder(records))
        decoded = list(ndef.message_decoder(octets))  # ndeflib's own reading is the expectation
        expectation = {
            "name": name,
            "messageHex": octets.hex(),
            "records": [record_expectation(r) for r in decoded],
        }
        with open(os.path.join(forward, name + ".ndef"), "wb") as f:
            f.write(octets)
        with open(os.path.join(forward, name + ".expect.json"), "w") as f:
            json.dump(expectation, f, indent=1, sort_keys=True, ensure_ascii=False)
    print("generated %d messages in %s" % (len(corpus()), forward))


# ---------------------------------------------------------------------------------------------
# Comparison.
# ---------------------------------------------------------------------------------------------
def differences(expected, actual, path=""):
    """Where `actual` (ours) does not hold what `expected` (ndeflib's, in our keys) holds."""
    out = []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return ["%s: expected an object, ours is %r" % (path or "value", actual)]
        for key, value in expected.items():
            if key not in actual:
                out.append("%s.%s: missing in ours (ndeflib: %r)" % (path, key, value))
            elif key == "serviceUUIDs":
                out += differences(sorted(value), sorted(actual[key]), path + "." + key)
            else:
                out += differences(value, actual[key], path + "." + key)
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return ["%s: ndeflib %r, ours %r" % (path, expected, actual)]
        for index, (e, a) in enumerate(zip(expected, actual)):
            out += differences(e, a, "%s[%d]" % (path, index))
    elif expected != actual:
        out.append("%s: ndeflib %r, ours %r" % (path, expected, actual))
    return out


def ours_for_comparison(value):
    """Our `value` object with the keys whose form differs only in presentation normalised."""
    if not isinstance(value, dict):
        return value
    out = dict(value)
    if "serviceUUIDs" in out:
        out["serviceUUIDs"] = sorted(out["serviceUUIDs"])
    return out


def compare_records(expected_records, ours_records):
    problems = []
    if len(expected_records) != len(ours_records):
        return ["record count: ndeflib %d, ours %d" % (len(expected_records), len(ours_records))]
    for index, (exp, our) in enumerate(zip(expected_records, ours_records)):
        where = "record %d" % index
        for key in ("tnf", "typeHex", "idHex", "payloadHex"):
            if key in exp and exp[key] != our.get(key):
                problems.append("%s %s: ndeflib %r, ours %r" % (where, key, exp[key], our.get(key)))
        if exp.get("kind") != our.get("kind"):
            problems.append("%s kind: ndeflib %r, ours %r" % (where, exp.get("kind"), our.get("kind")))
        if "value" in exp:
            if "value" not in our:
                problems.append("%s: ours has no value (%s)" % (where, our.get("valueError")))
            else:
                problems += ["%s %s" % (where, d) for d in differences(exp["value"], ours_for_comparison(our["value"]))]
    return problems


def compare_forward(directory, results):
    forward = os.path.join(directory, "forward")
    names = sorted(n[:-len(".expect.json")] for n in os.listdir(forward) if n.endswith(".expect.json"))
    for name in names:
        with open(os.path.join(forward, name + ".expect.json")) as f:
            expected = json.load(f)
        ours_path = os.path.join(forward, name + ".ours.json")
        if not os.path.exists(ours_path):
            results.append(("fwd/" + name, ["no output from the Swift side (run the CrossCheck test)"]))
            continue
        with open(ours_path) as f:
            ours = json.load(f)
        if "error" in ours:
            results.append(("fwd/" + name, ["our strict decoder refused the message: " + ours["error"]]))
            continue
        # Payload bytes: ndeflib re-encodes typed records, so compare its raw bytes from the message.
        raw = list(ndef.message_decoder(bytes.fromhex(expected["messageHex"]), known_types={}))
        for exp, record in zip(expected["records"], raw):
            exp["payloadHex"] = bytes(record.data).hex()
        results.append(("fwd/" + name, compare_records(expected["records"], ours["records"])))
    return len(names)


def compare_reverse(directory, results):
    reverse = os.path.join(directory, "reverse")
    if not os.path.isdir(reverse):
        results.append(("rev", ["no reverse corpus (run the CrossCheck test)"]))
        return 0
    names = sorted(n[:-len(".ndef")] for n in os.listdir(reverse) if n.endswith(".ndef"))
    for name in names:
        with open(os.path.join(reverse, name + ".ndef"), "rb") as f:
            octets = f.read()
        with open(os.path.join(reverse, name + ".ours.json")) as f:
            ours = json.load(f)
        try:
            decoded = list(ndef.message_decoder(octets))
        except Exception as error:  # ndeflib refused our encoding
            results.append(("rev/" + name, ["ndeflib refused our message: %s" % error]))
            continue
        expected = [record_expectation(r) for r in decoded]
        raw = list(ndef.message_decoder(octets, known_types={}))
        for exp, record in zip(expected, raw):
            exp["payloadHex"] = bytes(record.data).hex()
        results.append(("rev/" + name, compare_records(expected, ours["records"])))
    return len(names)


def compare(directory):
    results = []
    forward_count = compare_forward(directory, results)
    reverse_count = compare_reverse(directory, results)
    failures, known, passed = [], [], 0
    for name, problems in results:
        if not problems:
            passed += 1
        elif name in KNOWN:
            known.append((name, problems))
        else:
            failures.append((name, problems))
    unexpected_passes = [n for n, p in results if not p and n in KNOWN]
    for name, problems in known:
        print("KNOWN   %s: %s" % (name, KNOWN[name]))
        for problem in problems:
            print("          %s" % problem)
    for name, problems in failures:
        print("DIFFER  %s" % name)
        for problem in problems:
            print("          %s" % problem)
    for name in unexpected_passes:
        print("NOTE    %s is listed in KNOWN but now agrees" % name)
    print("forward (ndeflib encodes, we decode): %d messages" % forward_count)
    print("reverse (we encode, ndeflib decodes): %d messages" % reverse_count)
    print("agree: %d, known ndeflib deviations: %d, unexplained differences: %d"
          % (passed, len(known), len(failures)))
    with open(os.path.join(directory, "report.json"), "w") as f:
        json.dump({
            "forward": forward_count, "reverse": reverse_count, "agree": passed,
            "known": {n: {"reason": KNOWN[n], "differences": p} for n, p in known},
            "differences": {n: p for n, p in failures},
        }, f, indent=1, ensure_ascii=False)
    return 1 if failures else 0


def main(argv):
    if len(argv) != 3 or argv[1] not in ("generate", "compare"):
        print(__doc__)
        return 64
    if argv[1] == "generate":
        generate(argv[2])
        return 0
    return compare(argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
