"""Decode and encode throughput of ndeflib on the benchmark messages, next to the Swift figures.

    python bench_ndeflib.py DIR SWIFT_TSV [--quick]

DIR holds a.ndef, b.ndef and c.ndef as written by NDEFBenchmarks; SWIFT_TSV is the file its
--tsv option wrote. Each figure is messages per second, the median of 5 runs of at least
0.3 s each, measured the same way as the Swift side:

    decode: list(ndef.message_decoder(data))
    encode: b''.join(ndef.message_encoder(records))   (records from one decode)

Prints a table with Swift msgs/s, ndeflib msgs/s and their ratio for each message. A
message ndeflib refuses is reported in the table, not raised.
"""

import os
import statistics
import sys
import time

import ndef

NAMES = ("a", "b", "c")


def rate(work, run_length, runs):
    """Median calls of work() per second over `runs` runs of at least `run_length` seconds."""
    iterations = 1
    while True:
        start = time.perf_counter()
        for _ in range(iterations):
            work()
        elapsed = time.perf_counter() - start
        if elapsed >= run_length / 4:
            iterations = max(iterations, int(iterations * run_length / elapsed * 1.1) + 1)
            break
        iterations *= 2
    rates = []
    for _ in range(runs):
        done = 0
        elapsed = 0.0
        while elapsed < run_length:
            start = time.perf_counter()
            for _ in range(iterations):
                work()
            elapsed += time.perf_counter() - start
            done += iterations
        rates.append(done / elapsed)
    return statistics.median(rates)


def measure(data, run_length, runs):
    """(decode, encode, note): rates, or a string saying why ndeflib could not do it."""
    try:
        records = list(ndef.message_decoder(data))
    except Exception as error:  # ndeflib raises DecodeError, and others on odd input
        return refused(error), "n/a (no decoded records)", None
    decode = rate(lambda: list(ndef.message_decoder(data)), run_length, runs)
    try:
        encoded = b"".join(ndef.message_encoder(records))
    except Exception as error:
        return decode, refused(error), None
    encode = rate(lambda: b"".join(ndef.message_encoder(records)), run_length, runs)
    note = None
    if encoded != data:
        note = "ndeflib's re-encoding (%d bytes) differs from the %d input bytes" % (len(encoded), len(data))
    return decode, encode, note


def refused(error):
    """What to report for an error ndeflib raised."""
    return "refused: %s: %s" % (type(error).__name__, str(error) or "(no message)")


def read_swift(path):
    """The Swift figures: {(kind, name): value} from NDEFBenchmarks --tsv."""
    figures = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3:
                figures[(parts[0], parts[1])] = parts[2]
    return figures


def group(value):
    """A rate with thousands separators (one decimal below 100)."""
    return "%.1f" % value if value < 100 else "{:,.0f}".format(value)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    directory, swift_path = argv[1], argv[2]
    quick = "--quick" in argv[3:]
    run_length, runs = (0.02, 3) if quick else (0.3, 5)
    swift = read_swift(swift_path)

    rows = []
    notes = []
    for name in NAMES:
        with open(os.path.join(directory, name + ".ndef"), "rb") as file:
            data = file.read()
        decode, encode, note = measure(data, run_length, runs)
        if note:
            notes.append("(%s) %s" % (name, note))
        label = swift.get(("label", name), "(%s)" % name)
        operations = (("decode", decode), ("decode-message-typed", decode), ("decode-typed", decode), ("encode", encode))
        for operation, theirs in operations:
            ours = float(swift.get((operation, name), "nan"))
            if isinstance(theirs, float):
                ratio = "%.1fx" % (ours / theirs) if theirs > 0 else "-"
                rows.append((label, operation, group(ours), group(theirs), ratio))
            else:
                if theirs.startswith("refused: "):
                    notes.append("(%s) %s %s" % (name, operation, theirs))
                    theirs = "refused (see below)"
                rows.append((label, operation, group(ours), theirs, "-"))

    print("Swift NDEF vs ndeflib %s (Python %s): messages per second, median of %d runs of >= %s s each"
          % (ndef.__version__, sys.version.split()[0], runs, run_length))
    header = ("message", "operation", "Swift msg/s", "ndeflib msg/s", "Swift/ndeflib")
    widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
    for row in [header] + rows:
        cells = [str(cell).ljust(widths[i]) if i < 2 else str(cell).rjust(widths[i]) for i, cell in enumerate(row)]
        print("  ".join(cells).rstrip())
    for note in notes:
        print(note)
    print("ndeflib's decoder also builds typed record objects (Text, URI, Smart Poster, ...). Swift: 'decode' is"
          " NFCNDEFMessage(decoding:) (raw records in an array); 'decode-message-typed' that, then every record"
          " through its typed view (record.view()); 'decode-typed' the same checks and views through"
          " NDEFRecordSequence (no array of records): the like-for-like figures are the last two.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
