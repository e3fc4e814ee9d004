import Testing

@testable import NDEFCommandLine

/// The help of ndeftool itself, as printed (swift-argument-parser's layout).
@Suite struct HelpSnapshotTests {
    func help(_ arguments: [String]) async -> String {
        let result = await runInProcess(arguments)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        return result.outputText
    }

    @Test func topLevel() async {
        #expect(await help(["--help"]) == Self.topLevel)
        #expect(await help(["-h"]) == Self.topLevel)
        #expect(await help(["help"]) == Self.topLevel)
        #expect(await help([]) == Self.topLevel)
    }

    @Test func encode() async {
        #expect(await help(["encode", "--help"]) == Self.encode)
        #expect(await help(["help", "encode"]) == Self.encode)
        #expect(await help(["encode", "text", "hi", "-h"]) == Self.encode)
    }

    @Test func decode() async {
        #expect(await help(["decode", "-h"]) == Self.decode)
        #expect(await help(["help", "decode"]) == Self.decode)
    }

    @Test func inspect() async {
        #expect(await help(["inspect", "--help"]) == Self.inspect)
        #expect(await help(["help", "inspect"]) == Self.inspect)
    }

    @Test func version() async {
        #expect(await help(["--version"]) == "0.1.0\n")
        #expect(await help(["encode", "--version"]) == "0.1.0\n")
        #expect(NDEFToolVersion.current == "0.1.0")
    }

    /// Every line but the usage line fits 80 columns.
    @Test func helpLinesFitTheScreen() {
        for text in [Self.topLevel, Self.decode, Self.inspect] {
            for line in text.split(separator: "\n") where !line.hasPrefix("USAGE: ") {
                #expect(line.count <= 80, "\(line)")
            }
        }
    }

    static let topLevel = """
        OVERVIEW: Encode, decode and inspect NFC Forum NDEF messages; read, write and
        lock tags.

        Data is read from files or standard input ('-') and written to standard output
        or a file; messages go to standard error. On a terminal, messages are in colour
        (errors red, success green, warnings yellow) unless NO_COLOR is set.

        Examples:
          ndeftool encode uri https://example.com > message.ndef
          ndeftool write --reader sim:ntag215 uri https://example.com
          ndeftool read --reader 1 --json
          ndeftool readers --watch
          ndeftool completions bash

        Exit status:
          0   success
          64  usage error: unknown option, missing or invalid argument
          65  malformed input data (NDEF, hex, JSON or a tag dump)
          66  input file missing or unreadable
          69  no reader, or the reader cannot do this
          70  internal error in ndeftool (please report it)
          73  the message does not fit on the tag
          74  I/O error, for example the output cannot be written
          75  no tag in time, or the tag left: nothing was changed, try again
          76  the tag answered with an error, is not supported or holds no valid NDEF
          77  the tag is read-only
          78  password needed or wrong, or the tag's password is disabled
          79  lock refused: confirmation code missing or not for this tag
          80  a write stopped part way: the tag may be half-written (resume it)
          81  several tags in the field: nothing was changed, keep one at the reader
          130 interrupted

        USAGE: ndeftool <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          encode                  Build an NDEF message from record specifications.
          decode                  Describe an NDEF message.
          inspect                 Show the memory map and NDEF message of a tag dump.
          info                    Show a tag's chip, memory, NDEF status, locks and
                                  protection.
          read                    Read the NDEF message of a tag.
          write                   Write an NDEF message to a tag.
          lock                    Make a tag read-only for good (irreversible).
          password                Set, check, remove or show a tag's password.
          format                  Initialise a blank or wiped tag for NDEF.
          erase                   Leave an empty NDEF message on a tag.
          dump                    Save a tag's whole memory to a dump file.
          raw                     Send raw commands to a tag (for experts).
          batch                   Provision many tags from a plan, exactly once, on one
                                  or more readers.
          readers                 List readers: PC/SC, libnfc, simulated, remembered.
          sim                     Serve simulated tags to real reader stacks.
          completions             Print a shell completion script (bash, zsh or fish).

          See 'ndeftool help <subcommand>' for detailed help.

        """

    static let encode = """
        OVERVIEW: Build an NDEF message from record specifications.

        Each record is a kind word, its values, then its own options; the next word
        that is not a value starts the next record. An option after a record belongs to
        that record when its kind takes it and the record does not have it (or an
        alternative to it) yet; otherwise it is an option of encode: in 'mime
        text/plain hi --hex', --hex prints the message as hex.

        Record kinds:
          text <text> [--lang <code>] [--utf16]
          uri <uri>
          mime <type> (<data> | --file <path> | --hex <hex>)
          absolute <uri>
          external <domain:type> [<data> | --file <path> | --hex <hex>]
          aar <package>
          wifi <ssid> [--auth <name>] [--encryption <name>] [--mac <mac>]
               [--key-file <path> | --key-env <var>]
          smartposter <uri> [--title <text[@lang]> ...] [--action <action>]
                      [--icon <path>] [--size <n>] [--type <media-type>]
          raw --tnf <n> [--type <type> | --type-hex <hex>]
              [--payload <text> | --payload-hex <hex> | --payload-file <path>]
          message <file> [--hex]

        Every kind also takes --id <id> or --id-hex <hex>. An option value that starts
        with -- is written --option=value; record values that start with - come after
        --, which ends options. With -v, standard error says what was encoded: the
        size, and where each record lies (as 'ndeftool decode -v').

        Examples:
          ndeftool encode uri https://www.proxmark.com --hex
          ndeftool encode text "Hello" --lang en uri https://example.com -o tag.ndef
          ndeftool encode wifi MyNetwork --key-file key.txt -o wifi.ndef
          ndeftool encode --json message.json

        USAGE: ndeftool encode [--output <file>] [--hex] [--chunk-size <n>] [--json] [--quiet] [--verbose] [<record> ...]

        ARGUMENTS:
          <record>                Record specifications (see above); with --json, the
                                  JSON file to read (default: -).

        RECORD KINDS:
          text                    A text record (NFC Forum Text RTD).
          uri                     A URI record (NFC Forum URI RTD).
          mime                    A media-type record (TNF 2, RFC 2046 type).
          absolute                An absolute-URI record (TNF 3) with an empty payload.
          external                An NFC Forum external type record (TNF 4).
          aar                     An Android Application Record (android.com:pkg).
          wifi                    A Wi-Fi credential (application/vnd.wfa.wsc).
          smartposter             A Smart Poster (NFC Forum Smart Poster RTD).
          raw                     A record given field by field.
          message                 Every record of the NDEF message in <file> (- for
                                  standard input).

        RECORD OPTIONS:
          --lang <code>           text: The language of the text, an IETF language tag.
                                  (default: en)
          --utf16                 text: Store the text as UTF-16 instead of UTF-8.
          --file <path>           mime, external: Read the data from <path> (- for
                                  standard input).
          --hex <hex>             mime, external: The data, as hex.
          --auth <name>           wifi: Authentication (default: wpa2-personal with a
                                  key, else open). (values: open, wpa-personal, shared,
                                  wpa-enterprise, wpa2-enterprise, wpa2-personal,
                                  wpa-wpa2-personal, wpa3-personal, wpa2-wpa3-personal)
          --encryption <name>     wifi: Encryption (default: aes with a key, else
                                  none). (values: none, wep, tkip, aes, aes-tkip)
          --mac <mac>             wifi: The access point's MAC address (default:
                                  ff:ff:ff:ff:ff:ff).
          --key-file <path>       wifi: Read the network key from <path> (one line).
          --key-env <var>         wifi: Read the network key from environment variable
                                  <var>.
          --title <text[@lang]>   smartposter: A title; the part after the last @ is
                                  its language (default: en).
          --action <action>       smartposter: The recommended action. (values:
                                  execute, save, open)
          --icon <path>           smartposter: An icon: a .png, .jpg, .jpeg, .gif or
                                  .svg file.
          --size <n>              smartposter: The size of the linked content in bytes.
          --type <media-type>     smartposter: The media type of the linked content.
          --tnf <n>               raw: The type name format, 0-5 (NDEF 1.0, 3.2.6).
          --type <type>           raw: The type, as UTF-8 text.
          --type-hex <hex>        raw: The type, as hex.
          --payload <text>        raw: The payload, as UTF-8 text.
          --payload-hex <hex>     raw: The payload, as hex.
          --payload-file <path>   raw: Read the payload from <path> (- for standard
                                  input).
          --hex                   message: Read <file> as hex text (# starts a comment).
          --id <id>               all: The record ID, as UTF-8 text.
          --id-hex <hex>          all: The record ID, as hex.

        OPTIONS:
          -o, --output <file>     Write the message to <file> (- for standard output).
          --hex                   Print the message as lower-case hex on one line.
          --chunk-size <n>        Send payloads longer than <n> bytes as chunked
                                  records.
          --json                  Read the message as JSON ({"records":[...]}) instead.
          -q, --quiet             Print no progress or other notes (errors still are).
          -v, --verbose           Say on standard error what was encoded: the records
                                  and the bytes each one takes.
          --version               Show the version.
          -h, --help              Show help information.


        """

    static let decode = """
        OVERVIEW: Describe an NDEF message.

        Prints the record count and size, then for each record its index, type name
        format, type, ID, payload size, chunk count, and what the record says when
        ndeftool knows its type. Records nested in Smart Posters and Handover records
        are shown under theirs. With -v each record also shows where it lies in the
        input: its header byte and flags, and the bytes of its type, ID and payload, a
        line per chunk. -q leaves out the warnings of --lenient (the exit status stays
        0).

        Decoding is strict: the first deviation from NFC Forum NDEF 1.0 ends it with
        exit status 65 and the byte offset where it was found.

        Examples:
          ndeftool decode message.ndef
          ndeftool encode uri https://example.com | ndeftool decode
          ndeftool decode --json message.ndef
          ndeftool decode --hex message.hex
          ndeftool decode --lenient damaged.ndef
          ndeftool decode -v message.ndef

        USAGE: ndeftool decode [--hex] [--json] [--lenient] [--quiet] [--verbose] [<file>]

        ARGUMENTS:
          <file>                  The message, - for standard input. (default: -)

        OPTIONS:
          --hex                   Read hex text instead of binary (whitespace and #
                                  comments are ignored).
          --json                  Print the message as JSON ({"records":[...]}).
          --lenient               Recover what can be read from a damaged message; list
                                  each problem skipped on standard error.
          -q, --quiet             Print no progress or other notes (errors still are).
          -v, --verbose           Show where each record lies: its header byte and
                                  flags, the bytes of its type, ID and payload (text
                                  output).
          --version               Show the version.
          -h, --help              Show help information.


        """

    static let inspect = """
        OVERVIEW: Show the memory map and NDEF message of a tag dump.

        Reads a dump of an NFC Forum Type 2 tag (NTAG21x, MIFARE Ultralight) in any
        format ndeftool knows, detected from its content: a raw image (libnfc .mfd),
        hex text (one page per line, # comments), a Flipper Zero .nfc file, a proxmark3
        .bin or .json dump.

        Prints the chip and how it was identified (GET_VERSION in the dump, else the
        chip name in the file, else the page count), the UID and its check bytes, the
        capability container, the static and dynamic lock bits and the pages they lock,
        every TLV with its byte and page addresses, the memory map, the password
        configuration (AUTH0, PROT, CFGLCK, AUTHLIM, NFC counter), the originality
        signature and counters when the dump has them, the NDEF status and capacity,
        and the message, described as 'ndeftool decode' does. PWD and PACK are never
        shown: only whether the dump records them and whether they differ from the
        factory values. With -v the text ends with every page (MIFARE Classic: block)
        as hex, the PWD, PACK and key bytes shown as **.

        What the tag holds does not change the exit status: a blank, locked or damaged
        tag is reported with status 0 (see 'status' and 'problem' in the JSON). A
        MIFARE Classic image (Mini, 1K, 4K) is read through its MIFARE Application
        Directory: the NDEF sectors, the TLVs in them and the message. Exit status 65
        means the file is not a readable dump; the message names the line or byte.

        Examples:
          ndeftool inspect tag.nfc
          ndeftool inspect --json hf-mfu-dump.json
          ndeftool inspect --format raw --chip ntag215 dump.bin
          ndeftool inspect - < pages.txt
          ndeftool inspect -v tag.nfc

        USAGE: ndeftool inspect [--format <format>] [--chip <name>] [--json] [--quiet] [--verbose] [<file>]

        ARGUMENTS:
          <file>                  The dump, - for standard input. (default: -)

        OPTIONS:
          --format <format>       Read the dump as <format> instead of detecting it.
                                  (values: raw, proxmark-binary, hex, flipper,
                                  proxmark-json, proxmark-bin)
          --chip <name>           Read the memory as this chip's, whatever the dump
                                  says. (values: ntag210, ntag212, ntag213, ntag215,
                                  ntag216, ultralight, ultralight-c, mf0ul11, mf0ul21)
          --json                  Print the findings as JSON.
          -q, --quiet             Print no progress or other notes (errors still are).
          -v, --verbose           Also print every page (or block) as hex, PWD, PACK
                                  and keys as ** (text output).
          --version               Show the version.
          -h, --help              Show help information.


        """
}
