/// The tag dump file formats read and written by ``TagDump``.
///
/// ``TagDump/detect(_:fileName:)`` tells them apart by content, using the file name's
/// extension only to settle a tie (text that could be a binary image).
public enum TagDumpFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Raw memory image: pages (or MIFARE Classic blocks) back to back, nothing else.
    ///
    /// libnfc `utils/nfc-mfultralight.c` (`r`) writes `uiReadPages * 4` bytes of its buffer
    /// from page 0: 16 pages for an Ultralight (64 bytes; libnfc 1.7 always wrote these 64),
    /// 20/41/45/135/231 pages for MF0UL11, MF0UL21, NTAG213, NTAG215, NTAG216 chosen by
    /// GET_VERSION byte 6. Pages that failed to read are not counted, so a partial read gives a
    /// shorter file. With `--pw` it copies PWD and the PACK answer into the memory image
    /// (NTAG pages 0x2B-0x2C/0x85-0x86/0xE5-0xE6, MF0UL11 page 0x12-0x13; for MF0UL21 PWD goes
    /// to page 0x27 but PACK, by a slip, to page 0x24). `utils/nfc-mfclassic.c` writes
    /// `(uiBlocks + 1) * 16` bytes: 320 (Mini), 1024 (1K), 2048 (Plus 2K) or 4096 (4K), with
    /// the keys it used in the sector trailers. The size must be a whole number of 4-byte
    /// pages; whether an image is Type 2 or MIFARE Classic is guessed from its content
    /// (``TagDump/Layout/guess(for:)``).
    case raw
    /// proxmark3 binary MIFARE Ultralight dump (`hf mfu dump`, `.bin`): a 56-byte header then
    /// the pages (`include/mifare.h`, `mfu_dump_t`; `doc/mfu_binary_format_notes.md`).
    ///
    /// Header: GET_VERSION (8), "TBD" bytes `tbo` (2) and `tbo1` (1), the last page's index
    /// (1), READ_SIG (32), then three counters of 3 bytes as READ_CNT returns them each
    /// followed by its tearing flag (12). `client/src/cmdhfmfu.c` writes
    /// `56 + pages * 4` bytes and puts a known PWD and PACK in their pages.
    case proxmarkBinary = "proxmark-binary"
    /// Hex text, one page per line (`04 1A 2B 3C` or `041a2b3c`), optionally numbered in
    /// hexadecimal (`[04] …` or `04: …`); `#` starts a comment, blank lines are skipped.
    ///
    /// A line may instead hold 16 bytes (a READ response or a MIFARE Classic block), in which
    /// case every line must, and numbers count 16-byte lines. Numbers, when given, must run
    /// 0, 1, 2… without gaps. The writer numbers every line (`00: 04 1A 2B 3C`).
    case hexText = "hex"
    /// Flipper Zero `.nfc` file (versions 2, 3 and 4) of an NTAG/Ultralight tag.
    ///
    /// `Key: value` lines (`lib/flipper_format/flipper_format_stream.c`: key, `:`, one space,
    /// value, `\n`; hex as `%02X` joined by spaces; numbers in decimal; `# ` comments). Keys
    /// from `lib/nfc/nfc_device.c`, `protocols/iso14443_3a/iso14443_3a.c` and
    /// `protocols/mf_ultralight/mf_ultralight.c`, described in
    /// `documentation/file_formats/NfcFileFormats.md`. Version 2 stores ATQA least significant
    /// byte first, 3 and 4 most significant first; version 4 says `Device type: NTAG/Ultralight`
    /// and names the chip in `NTAG/Ultralight type`, older versions name it in `Device type`.
    /// The writer produces version 4 exactly as the firmware's `mf_ultralight_save` does.
    case flipper
    /// proxmark3 JSON dump of an Ultralight/NTAG (`"FileType": "mfu"`), as
    /// `client/src/fileutils.c` (`prepareJSON`, `jsfMfuMemory`) writes it through jansson with
    /// two-space indentation and no final line break: `Created`, `FileType`, `Card` (`UID`,
    /// `Version`, `TBO_0`, `TBO_1`, `Signature`, `Counter0`, `Tearing0`, … `Tearing2`) and
    /// `blocks` (`"0": "04112233"`, …), hex in upper case without separators.
    case proxmarkJSON = "proxmark-json"

    /// The usual file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .raw: "mfd"
        case .proxmarkBinary: "bin"
        case .hexText: "txt"
        case .flipper: "nfc"
        case .proxmarkJSON: "json"
        }
    }

    /// A short name for messages.
    public var description: String {
        switch self {
        case .raw: "raw memory image"
        case .proxmarkBinary: "proxmark3 binary dump"
        case .hexText: "hex text dump"
        case .flipper: "Flipper NFC file"
        case .proxmarkJSON: "proxmark3 JSON dump"
        }
    }

    /// Whether the format is text.
    public var isText: Bool {
        switch self {
        case .raw, .proxmarkBinary: false
        case .hexText, .flipper, .proxmarkJSON: true
        }
    }
}
