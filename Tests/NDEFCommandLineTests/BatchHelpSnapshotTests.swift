import Testing

@testable import NDEFCommandLine

/// The help of `ndeftool batch`, as printed (swift-argument-parser's layout, as the other
/// commands' snapshots in HelpSnapshotTests and TagHelpSnapshotTests).
@Suite struct BatchHelpSnapshotTests {
    func help(_ arguments: [String]) async -> String {
        let result = await runInProcess(arguments)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        return result.outputText
    }

    @Test func batch() async {
        #expect(await help(["batch", "--help"]) == Self.batch)
        #expect(await help(["help", "batch"]) == Self.batch)
        #expect(await help(["batch", "uri", "https://x.test/{counter}", "-h"]) == Self.batch)
    }

    @Test("The built binary prints the same help")
    func binary() async throws {
        let result = try await BinaryRunner.run(["batch", "--help"], environment: ["COLUMNS": ""])
        #expect(result.status == 0)
        #expect(result.outputText == Self.batch)
    }

    /// Every line but the usage line fits 80 columns; the examples are commands of the tool.
    @Test func helpLinesFitTheScreen() {
        for line in Self.batch.split(separator: "\n") where !line.hasPrefix("USAGE: ") {
            #expect(line.count <= 80, "\(line)")
        }
        let examples = Self.batch.split(separator: "\n").filter { $0.hasPrefix("  ndeftool ") }
        #expect(examples.count == 7)
        #expect(examples.allSatisfy { $0.hasPrefix("  ndeftool batch ") })
    }

    static let batch = """
        OVERVIEW: Provision many tags from a plan, exactly once, on one or more
        readers.

        Each tag presented gets the next row of the plan, written with the message the
        record template makes for it (as 'ndeftool write' takes records, with {field}
        from the plan, {uid} the tag's UID, {row} the row number), verified, then
        locked (--lock) and given its own password (--derive-passwords) when asked. A
        tag done already in this job is refused, with a red light and a long beep on
        readers that have them; each success gets green and a short beep.

        Every step is recorded in the journal before and after it happens (fsync), so
        after a crash, a power cut or kill -9, 'ndeftool batch --resume JOURNAL' goes
        on: no row is written to two tags and none is skipped; a tag that was being
        written finishes its row when it is brought back. The journal and the reports
        never hold a password or the master secret.

        With several --reader options, each reader is a station: rows are handed out so
        that two stations never write the same row; a reader unplugged mid-job is
        reconnected and the others go on. Ctrl-C stops after the tags in progress. The
        reports (CSV and JSON: row, UID, outcome, time) are written at the end.

        --lock asks for the job's code once, up front (a terminal), or takes it with
        --confirm (scripts; --dry-run shows it). The code depends on the plan, the
        template and the options. --derive-passwords reads the master secret from
        --master-secret-file or $NDEFTOOL_MASTER_SECRET, never the command line.

        Exit status: 0 every row done; 75 stopped with rows left, or the journal is in
        use by another run (resume later); 80 rows wait for their tags to come back;
        130 interrupted; 74 the journal could not be written; 79 lock not confirmed.

        Examples:
          ndeftool batch uri 'https://example.com/t/{serial}' --plan tags.csv
          ndeftool batch uri 'https://example.com/t/{counter}' --from 1000 --to 1499
          ndeftool batch text 'Seat {seat}' --plan seats.jsonl --reader 1 --reader 2
          ndeftool batch --resume tags.journal
          ndeftool batch uri 'https://x.test/{uid}' --from 1 --to 50 --lock --dry-run
          ndeftool batch uri 'https://x.test/{serial}' --plan tags.csv --lock \\
              --confirm 123-456 --derive-passwords --master-secret-file secret.bin
          ndeftool batch uri 'https://x.test/{counter}' --from 1 --to 20 \\
              --reader 'sim:ntag215?supply=20&file=tags/'

        USAGE: ndeftool batch [<options>] [<record> ...]

        ARGUMENTS:
          <record>                The message of each tag: record specifications with
                                  placeholders.

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

        OPTIONS:
          --plan <file>           The plan: one row per tag, CSV with a header row
                                  (.csv) or JSON Lines (.jsonl).
          --from <n>              A counter plan instead of a file: rows {counter} =
                                  <n> to --to.
          --to <n>                The last value of the counter plan.
          --width <digits>        Zero-pad {counter} to <digits> digits. (default: 0)
          --journal <file>        The journal of the job (default: the plan's name with
                                  .journal, or batch-FROM-TO.journal).
          --resume <journal>      Continue the job of <journal> after a stop or crash
                                  (the plan, template and options come from it).
          --reader <url>          A reader to provision on, one station each; repeat
                                  for several; 'all' for every reader connected
                                  (default: the reader the tag commands choose).
          --wait <seconds>        Stop a reader after <seconds> without a new tag
                                  (default: wait until the job is done or Ctrl-C).
          --lock                  Make each tag read-only for good after its verified
                                  write (confirmed once for the job).
          --confirm <code>        The job code that confirms --lock without asking (see
                                  --dry-run).
          --derive-passwords      Give each tag its own password, HMAC-SHA256(master
                                  secret, UID) (NTAG21x, Ultralight EV1).
          --master-secret-file <file>
                                  The master secret each tag's password is derived from
                                  (HMAC-SHA256 of the UID); else
                                  $NDEFTOOL_MASTER_SECRET. At least 16 bytes; a final
                                  line break is not part of it.
          --from-page <page>      AUTH0, the first protected page. Default: the first
                                  user page (4): the whole NDEF area, the dynamic lock
                                  bytes and the configuration.
          --read-protect          PROT: reading the protected pages needs the password
                                  too (phones then cannot read them).
          --attempt-limit <n>     AUTHLIM: 1-7 wrong passwords disable the password for
                                  good; 0: unlimited. (default: 0)
          --report <file>         The CSV report (default: the journal's name with
                                  .report.csv).
          --report-json <file>    The JSON report (default: the journal's name with
                                  .report.json).
          --dry-run               Check the plan and template, show the first message
                                  and the job code; touch no reader.
          --json                  Print the summary as JSON.
          -q, --quiet             Print no progress or other notes (errors still are).
          -v, --verbose           Show each reader's state changes.
          --version               Show the version.
          -h, --help              Show help information.


        """
}
