#!/usr/bin/env python3
"""Reads or writes the NDEF message of a Type 2 tag on a PN532 with nfcpy 1.0.4.

A cross-check with an implementation that is not ours: the tests and benchmarks run it against
the simulated PN532 (`ndeftool sim serve --pn532 PATH`, or PN532SerialSimulator in process).

    nfcpy-tag.py PATH read             prints {"uid", "message", "milliseconds"} as JSON
    nfcpy-tag.py PATH write HEX        writes the message (hex), then reads it back the way
                                       nfcpy checks a tag (tag.ndef.has_changed) and prints
                                       {"uid", "message", "milliseconds"}

PATH is the PN532's serial line (a pty or its symlink). "milliseconds" is the wall time of the
operation alone, from the activated tag to the end (sensing and nfcpy's start-up excluded).
Exit status: 0 done, 1 nfcpy failed or the read-back differs, 2 usage, 3 no tag found.

nfcpy gives a PN532 100 ms to acknowledge a command (its datasheet says 15 ms). The simulated
PN532 answers every frame, tag timeouts included (as the chip's status byte, UM0701 7.1), but on
a busy machine its thread may not be scheduled within 100 ms, and nfcpy would then report an
input/output error although nothing went wrong. So the script waits at least HOST_WAIT_FLOOR_MS
for every answer on the serial line: a wait ends when the answer is there, so a responsive PN532
is exactly as fast, and nothing nfcpy decides depends on how busy the machine is.
"""

import json
import sys
import time

import nfc
import nfc.clf
import nfc.clf.pn532
import nfc.clf.transport
import nfc.tag


HOST_WAIT_FLOOR_MS = 60000


class PatientTTY(nfc.clf.transport.TTY):
    """nfcpy's serial transport, waiting at least HOST_WAIT_FLOOR_MS for each answer."""

    def read(self, timeout):
        return super().read(max(timeout, HOST_WAIT_FLOOR_MS))


def open_frontend(path):
    frontend = nfc.ContactlessFrontend()
    frontend.device = nfc.clf.pn532.init(PatientTTY(path))
    return frontend


def activate(frontend):
    target = frontend.sense(nfc.clf.RemoteTarget("106A"), iterations=10, interval=0.05)
    if target is None:
        return None
    return nfc.tag.activate(frontend, target)


def main(arguments):
    if len(arguments) < 2 or arguments[1] not in ("read", "write") or (arguments[1] == "write") != (len(arguments) == 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, action = arguments[0], arguments[1]
    frontend = open_frontend(path)
    try:
        tag = activate(frontend)
        if tag is None:
            print("nfcpy-tag: no tag found", file=sys.stderr)
            return 3
        start = time.perf_counter()
        if action == "read":
            if tag.ndef is None:
                print("nfcpy-tag: the tag has no NDEF data", file=sys.stderr)
                return 1
            message = bytes(tag.ndef.octets)
        else:
            wanted = bytes.fromhex(arguments[2])
            ndef = tag.ndef
            if ndef is None:
                print("nfcpy-tag: the tag is not NDEF formatted", file=sys.stderr)
                return 1
            ndef.octets = wanted
            changed = ndef.has_changed  # nfcpy's own check: reads the NDEF data again
            message = bytes(ndef._data or b"")
            if changed or message != wanted:
                print("nfcpy-tag: the read-back differs: " + message.hex(), file=sys.stderr)
                return 1
        elapsed = (time.perf_counter() - start) * 1000
        print(json.dumps({"uid": bytes(tag.identifier).hex(), "message": message.hex(), "milliseconds": elapsed}))
        return 0
    except Exception as error:  # nfcpy raises many kinds; report and fail
        print("nfcpy-tag: %s: %s" % (type(error).__name__, error), file=sys.stderr)
        return 1
    finally:
        frontend.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
