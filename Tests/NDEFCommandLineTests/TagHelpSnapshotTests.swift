import Testing

@testable import NDEFCommandLine

/// The help of the tag commands, as printed (swift-argument-parser's layout, the shared tag
/// options under their own heading).
@Suite struct TagHelpSnapshotTests {
    func help(_ arguments: [String]) async -> String {
        let result = await runInProcess(arguments)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        return result.outputText
    }

    @Test(arguments: ["info", "read", "write", "lock", "format", "erase"])
    func helpOfEachCommand(name: String) async {
        let expected = Self.snapshots[name]
        #expect(await help([name, "--help"]) == expected)
        #expect(await help(["help", name]) == expected)
    }

    /// Every line but the usage line fits 80 columns.
    @Test func helpLinesFitTheScreen() {
        for text in Self.snapshots.values {
            for line in text.split(separator: "\n") where !line.hasPrefix("USAGE: ") {
                #expect(line.count <= 80, "\(line)")
            }
        }
    }

    static let snapshots = [
        "info": info, "read": read, "write": write, "lock": lock, "format": format, "erase": erase,
    ]

    static let info = """
        OVERVIEW: Show a tag's chip, memory, NDEF status, locks and protection.

        Prints the chip and how it was identified (GET_VERSION, else the capability
        container or the page count), the UID, the user memory, the NDEF status
        (read/write, read-only, not formatted) with the capacity and the bytes the
        message uses, the capability container, the static and dynamic lock bits and
        the pages they lock, the password protection (from which page, for writing or
        also reading, the attempt limit; PWD and PACK are never shown), the NFC counter
        on chips that have one (when enabled), the originality signature (READ_SIG, not
        verified) and, on a writable tag or one whose lock was interrupted, the code
        'ndeftool lock --confirm' takes.

        On a Type 4 tag (ISO-DEP): the ATS, the capability container of the NDEF Tag
        Application (mapping version, MLe, MLc, the NDEF file with its size and read
        and write access; NFC Forum Type 4 Tag 3.0, 5.1), the NDEF status and the lock
        code.

        Nothing is written. Facts the tag does not give (password-protected pages,
        commands the chip lacks) are reported as unknown; they do not change the exit
        status.

        Examples:
          ndeftool info --reader 'sim:ntag215?file=tag.nfc'
          ndeftool info --json --wait 0
          ndeftool info --reader 'sim:type4?file=t4.txt'

        USAGE: ndeftool info [--json] [--password-file <file>] [--pack <hex>] [--reader <url>] [--wait <seconds>] [--quiet] [--verbose]

        PASSWORD OPTIONS:
          --password-file <file>  Read the password from the first line of <file> ('-':
                                  standard input): 8 hex digits or 4 ASCII characters.
                                  Else $NDEFTOOL_PASSWORD, else a prompt on a terminal.
          --pack <hex>            PACK, the 2 bytes (4 hex digits) the tag answers a
                                  correct password with. Not a secret: the tag sends it
                                  in the clear.

        TAG OPTIONS:
          --reader <url>          The reader: a number from 'ndeftool readers',
                                  pcsc:NAME (a PC/SC reader: a name, its prefix or an
                                  index; pcsc: is the first), libnfc:CONNSTRING (a
                                  libnfc device, such as
                                  libnfc:pn532_uart:/dev/ttyUSB0; libnfc: is the first
                                  it lists), sim:CHIP[?file=PATH&...] (a simulated
                                  tag). Default: $NDEFTOOL_READER, else the reader used
                                  last if it is connected, else the only one, else a
                                  question on a terminal ('ndeftool readers' lists
                                  them).
          --wait <seconds>        How long to wait for a tag; 0 looks once. (default:
                                  15)
          -q, --quiet             Print no progress or other notes (errors still are).
          -v, --verbose           Print each command sent to the tag and its answer,
                                  and the count.

        OPTIONS:
          --json                  Print the facts as JSON.
          --version               Show the version.
          -h, --help              Show help information.


        """

    static let read = """
        OVERVIEW: Read the NDEF message of a tag.

        Waits for one tag at the reader, reads its NDEF message and describes it as
        'ndeftool decode' does. On a Type 2 tag (NTAG21x, MIFARE Ultralight) that is
        the capability container and the TLVs up to the end of the NDEF Message TLV,
        and no further (NFC Forum Type 2 Tag 1.1, 6.4.2); on a Type 4 tag (ISO-DEP) the
        NDEF Tag Application's CC file, then NLEN and the message of the NDEF file
        (Type 4 Tag 3.0, 5.5.6).

        A tag that holds an empty NDEF message (an initialised tag) is reported as such
        with exit status 0 (JSON: no records; --raw and --hex: nothing). A tag that is
        not NDEF formatted ends with exit status 76: initialise it with 'ndeftool
        format'.

        Examples:
          ndeftool read --reader 'sim:ntag215?file=tag.nfc'
          ndeftool read --json
          ndeftool read --raw -o message.ndef
          ndeftool read --reader 'sim:type4?file=t4.txt'
          NDEFTOOL_READER=sim:ntag213 ndeftool read --hex --wait 0

        USAGE: ndeftool read [--json] [--hex] [--raw] [--output <file>] [--password-file <file>] [--pack <hex>] [--reader <url>] [--wait <seconds>] [--quiet] [--verbose]

        PASSWORD OPTIONS:
          --password-file <file>  Read the password from the first line of <file> ('-':
                                  standard input): 8 hex digits or 4 ASCII characters.
                                  Else $NDEFTOOL_PASSWORD, else a prompt on a terminal.
          --pack <hex>            PACK, the 2 bytes (4 hex digits) the tag answers a
                                  correct password with. Not a secret: the tag sends it
                                  in the clear.

        TAG OPTIONS:
          --reader <url>          The reader: a number from 'ndeftool readers',
                                  pcsc:NAME (a PC/SC reader: a name, its prefix or an
                                  index; pcsc: is the first), libnfc:CONNSTRING (a
                                  libnfc device, such as
                                  libnfc:pn532_uart:/dev/ttyUSB0; libnfc: is the first
                                  it lists), sim:CHIP[?file=PATH&...] (a simulated
                                  tag). Default: $NDEFTOOL_READER, else the reader used
                                  last if it is connected, else the only one, else a
                                  question on a terminal ('ndeftool readers' lists
                                  them).
          --wait <seconds>        How long to wait for a tag; 0 looks once. (default:
                                  15)
          -q, --quiet             Print no progress or other notes (errors still are).
          -v, --verbose           Print each command sent to the tag and its answer,
                                  and the count.

        OPTIONS:
          --json                  Print the message as JSON ({"records":[...]}).
          --hex                   Print the message as lower-case hex on one line.
          --raw                   Write the message as binary NDEF (to standard output
                                  or --output).
          -o, --output <file>     Write the message to <file> instead of standard
                                  output.
          --version               Show the version.
          -h, --help              Show help information.


        """

    static let write = """
        OVERVIEW: Write an NDEF message to a tag.

        The message is given as record specifications, as for 'ndeftool encode' (see
        'ndeftool help encode' for every kind and option), or with --from: a file
        holding binary NDEF, hex text or JSON ({"records":[...]}), told apart by its
        first byte.

        Before any write the tag is read: it must be NDEF formatted, writable and large
        enough (exit statuses 76, 77 and 73, with nothing written). The write is
        tearing-safe (NFC Forum Type 2 Tag 1.1, 6.4.3): the NDEF length is set to 0
        first and to the new length last, so a tag taken away too early holds the old
        message, an empty one or the new one; the pages written are read back. An
        interrupted write ends with exit status 80 and the command that completes it
        (the same one with --resume).

        A Type 4 tag (ISO-DEP) is written the same way with UPDATE BINARY commands of
        at most MLc bytes (NFC Forum Type 4 Tag 3.0, 5.5.7): NLEN 0 first, the message,
        NLEN last, or one UPDATE BINARY when the length and the message fit one
        command; then the NDEF file is read back. --dry-run shows each command APDU.

        --lock then makes the tag read-only for good, under the rules of 'ndeftool
        lock': a person at a terminal types the lock code back, or --confirm gives it;
        otherwise the lock is refused with exit status 79 after the write, and the lock
        command to run is shown.

        Examples:
          ndeftool write uri https://example.com --reader 'sim:ntag215?file=tag.nfc'
          ndeftool write text "Hello" --lang en uri https://example.com
          ndeftool write --from message.ndef --dry-run
          ndeftool encode --json message.json | ndeftool write --from -
          ndeftool write uri https://example.com --resume
          ndeftool write text "Hi" --dry-run --reader 'sim:type4?file=t4.txt'

        USAGE: ndeftool write [<options>] [<record> ...]

        ARGUMENTS:
          <record>                Record specifications, as for 'ndeftool encode'.

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

        PASSWORD OPTIONS:
          --password-file <file>  Read the password from the first line of <file> ('-':
                                  standard input): 8 hex digits or 4 ASCII characters.
                                  Else $NDEFTOOL_PASSWORD, else a prompt on a terminal.
          --pack <hex>            PACK, the 2 bytes (4 hex digits) the tag answers a
                                  correct password with. Not a secret: the tag sends it
                                  in the clear.

        TAG OPTIONS:
          --reader <url>          The reader: a number from 'ndeftool readers',
                                  pcsc:NAME (a PC/SC reader: a name, its prefix or an
                                  index; pcsc: is the first), libnfc:CONNSTRING (a
                                  libnfc device, such as
                                  libnfc:pn532_uart:/dev/ttyUSB0; libnfc: is the first
                                  it lists), sim:CHIP[?file=PATH&...] (a simulated
                                  tag). Default: $NDEFTOOL_READER, else the reader used
                                  last if it is connected, else the only one, else a
                                  question on a terminal ('ndeftool readers' lists
                                  them).
          --wait <seconds>        How long to wait for a tag; 0 looks once. (default:
                                  15)
          -q, --quiet             Print no progress or other notes (errors still are).
          -v, --verbose           Print each command sent to the tag and its answer,
                                  and the count.

        OPTIONS:
          --from <file>           Write the message in <file> (- for standard input):
                                  binary NDEF, hex text or JSON.
          --json                  Print what was written (or the plan) as JSON.
          --dry-run               Read the tag and print the page writes the message
                                  needs; write nothing.
          --resume                Complete a write that was interrupted: read the whole
                                  tag, write what is missing.
          --lock                  After the verified write, make the tag read-only for
                                  good (asks for the lock code).
          --confirm <code>        Lock without asking when <code> is the lock code of
                                  this tag and its content (123-456).
          --version               Show the version.
          -h, --help              Show help information.


        """

    static let lock = """
        OVERVIEW: Make a tag read-only for good (irreversible).

        Locking cannot be undone: the capability container's write access becomes Fh
        and the lock bits are set (NFC Forum Type 2 Tag 1.1, 6.4.4; both are one-time
        programmable). The command shows the tag's UID, its message and a 6-digit lock
        code (123-456) that stands for this tag, this content and this lock plan.

        A person at a terminal (standard input and standard error) is asked to type the
        code back. Otherwise the lock is refused with exit status 79 unless --confirm
        gives the code: take it from a first run, or from 'ndeftool lock --dry-run'.
        The code changes when the content does, so a code shown for one message or one
        tag locks no other. After the writes the tag is read back and must report
        read-only.

        On a Type 4 tag the lock is the read-only procedure of NFC Forum Type 4 Tag
        3.0, 5.5.8: one UPDATE BINARY writes FFh (no write access) at the NDEF file's
        write access byte in the CC file, then the CC file is read back. Many Type 4
        tags do not let the CC file be written (an NTAG 424 DNA changes access rights
        only with its own commands): the lock then ends with exit status 77 and the tag
        stays writable.

        Examples:
          ndeftool lock --dry-run --reader 'sim:ntag215?file=tag.nfc'
          ndeftool lock --confirm 123-456 --reader 'sim:ntag215?file=tag.nfc'
          ndeftool lock --dry-run --json
          ndeftool lock --dry-run --reader 'sim:type4?file=t4.txt&cc-writable=1'

        USAGE: ndeftool lock [--confirm <code>] [--dry-run] [--json] [--password-file <file>] [--pack <hex>] [--reader <url>] [--wait <seconds>] [--quiet] [--verbose]

        PASSWORD OPTIONS:
          --password-file <file>  Read the password from the first line of <file> ('-':
                                  standard input): 8 hex digits or 4 ASCII characters.
                                  Else $NDEFTOOL_PASSWORD, else a prompt on a terminal.
          --pack <hex>            PACK, the 2 bytes (4 hex digits) the tag answers a
                                  correct password with. Not a secret: the tag sends it
                                  in the clear.

        TAG OPTIONS:
          --reader <url>          The reader: a number from 'ndeftool readers',
                                  pcsc:NAME (a PC/SC reader: a name, its prefix or an
                                  index; pcsc: is the first), libnfc:CONNSTRING (a
                                  libnfc device, such as
                                  libnfc:pn532_uart:/dev/ttyUSB0; libnfc: is the first
                                  it lists), sim:CHIP[?file=PATH&...] (a simulated
                                  tag). Default: $NDEFTOOL_READER, else the reader used
                                  last if it is connected, else the only one, else a
                                  question on a terminal ('ndeftool readers' lists
                                  them).
          --wait <seconds>        How long to wait for a tag; 0 looks once. (default:
                                  15)
          -q, --quiet             Print no progress or other notes (errors still are).
          -v, --verbose           Print each command sent to the tag and its answer,
                                  and the count.

        OPTIONS:
          --confirm <code>        Lock without asking when <code> is the lock code of
                                  this tag and its content (123-456).
          --dry-run               Print the lock plan and the lock code; write nothing.
          --json                  Print the tag, the code and the plan as JSON.
          --version               Show the version.
          -h, --help              Show help information.


        """

    static let format = """
        OVERVIEW: Initialise a blank or wiped tag for NDEF.

        Writes the chip's capability container and an empty NDEF message (with the
        chip's factory Lock Control TLV where it has one), so that the tag reads as
        INITIALIZED with its full capacity (NFC Forum Type 2 Tag 1.1, 6.3.1). The
        capability container is one-time programmable: its bits can be set, never
        cleared, so a tag whose CC has bits the chip's CC lacks cannot be formatted
        (exit status 77, nothing written). The chip must be identified (GET_VERSION or
        its CC).

        A tag that is already NDEF formatted and writable is erased instead (as
        'ndeftool erase', tearing-safe). When it holds a message, format refuses with
        exit status 64 unless --force is given: use 'ndeftool erase' to empty a tag on
        purpose.

        A Type 4 tag (ISO-DEP) cannot be formatted with the NFC Forum commands: its
        NDEF Tag Application, CC file and NDEF file come from the manufacturer (or from
        proprietary commands, as MIFARE DESFire's), and most tags do not let the CC
        file be written. So on a Type 4 tag format writes an empty NDEF file (NLEN 0,
        NFC Forum Type 4 Tag 3.0, 5.2 INITIALIZED state), under the same --force rule;
        a tag without NDEF Tag Application ends with exit status 76.

        Examples:
          ndeftool format --reader 'sim:ntag215?file=tag.nfc'
          ndeftool format --dry-run
          ndeftool format --force
          ndeftool format --reader 'sim:type4?file=t4.txt'

        USAGE: ndeftool format [--force] [--dry-run] [--json] [--password-file <file>] [--pack <hex>] [--reader <url>] [--wait <seconds>] [--quiet] [--verbose]

        PASSWORD OPTIONS:
          --password-file <file>  Read the password from the first line of <file> ('-':
                                  standard input): 8 hex digits or 4 ASCII characters.
                                  Else $NDEFTOOL_PASSWORD, else a prompt on a terminal.
          --pack <hex>            PACK, the 2 bytes (4 hex digits) the tag answers a
                                  correct password with. Not a secret: the tag sends it
                                  in the clear.

        TAG OPTIONS:
          --reader <url>          The reader: a number from 'ndeftool readers',
                                  pcsc:NAME (a PC/SC reader: a name, its prefix or an
                                  index; pcsc: is the first), libnfc:CONNSTRING (a
                                  libnfc device, such as
                                  libnfc:pn532_uart:/dev/ttyUSB0; libnfc: is the first
                                  it lists), sim:CHIP[?file=PATH&...] (a simulated
                                  tag). Default: $NDEFTOOL_READER, else the reader used
                                  last if it is connected, else the only one, else a
                                  question on a terminal ('ndeftool readers' lists
                                  them).
          --wait <seconds>        How long to wait for a tag; 0 looks once. (default:
                                  15)
          -q, --quiet             Print no progress or other notes (errors still are).
          -v, --verbose           Print each command sent to the tag and its answer,
                                  and the count.

        OPTIONS:
          --force                 Format even when the tag holds an NDEF message (the
                                  message is lost).
          --dry-run               Print the page writes; write nothing.
          --json                  Print the result (or the plan) as JSON.
          --version               Show the version.
          -h, --help              Show help information.


        """

    static let erase = """
        OVERVIEW: Leave an empty NDEF message on a tag.

        Writes an empty NDEF Message TLV (03 00, then a Terminator TLV): the tag is
        then INITIALIZED (NFC Forum Type 2 Tag 1.1, 6.3.1) and reads as holding an
        empty NDEF message. Usually one page write. The rest of the old message stays
        in memory behind the empty TLV, unread; the capability container, lock bits and
        password settings are not touched.

        On a Type 4 tag the NDEF file's length (NLEN) is set to 0 with one UPDATE
        BINARY (NFC Forum Type 4 Tag 3.0, 5.5.7); none when it is 0 already.

        A tag that is not NDEF formatted ends with exit status 76 (use 'ndeftool
        format'); a read-only one with 77.

        Examples:
          ndeftool erase --reader 'sim:ntag215?file=tag.nfc'
          ndeftool erase --dry-run
          ndeftool erase --reader 'sim:type4?file=t4.txt'

        USAGE: ndeftool erase [--dry-run] [--json] [--password-file <file>] [--pack <hex>] [--reader <url>] [--wait <seconds>] [--quiet] [--verbose]

        PASSWORD OPTIONS:
          --password-file <file>  Read the password from the first line of <file> ('-':
                                  standard input): 8 hex digits or 4 ASCII characters.
                                  Else $NDEFTOOL_PASSWORD, else a prompt on a terminal.
          --pack <hex>            PACK, the 2 bytes (4 hex digits) the tag answers a
                                  correct password with. Not a secret: the tag sends it
                                  in the clear.

        TAG OPTIONS:
          --reader <url>          The reader: a number from 'ndeftool readers',
                                  pcsc:NAME (a PC/SC reader: a name, its prefix or an
                                  index; pcsc: is the first), libnfc:CONNSTRING (a
                                  libnfc device, such as
                                  libnfc:pn532_uart:/dev/ttyUSB0; libnfc: is the first
                                  it lists), sim:CHIP[?file=PATH&...] (a simulated
                                  tag). Default: $NDEFTOOL_READER, else the reader used
                                  last if it is connected, else the only one, else a
                                  question on a terminal ('ndeftool readers' lists
                                  them).
          --wait <seconds>        How long to wait for a tag; 0 looks once. (default:
                                  15)
          -q, --quiet             Print no progress or other notes (errors still are).
          -v, --verbose           Print each command sent to the tag and its answer,
                                  and the count.

        OPTIONS:
          --dry-run               Print the page writes; write nothing.
          --json                  Print the result (or the plan) as JSON.
          --version               Show the version.
          -h, --help              Show help information.


        """
}
