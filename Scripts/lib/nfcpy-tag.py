#!/usr/bin/env python3
"""Reads or writes the NDEF message of the tag at a PN532 on a serial port, with nfcpy.

Usage: nfcpy-tag.py PORT read
       nfcpy-tag.py PORT write HEX

PORT is a serial device or a link to one, such as the pseudo-terminal of a simulated PN532
(ndeftool sim serve --pn532 PORT ...). nfcpy 1.0.4 (PyPI package nfcpy) opens it with its own
PN532 driver, which shares no code with ndeftool: an independent reader of what ndeftool wrote.
Prints "tag <nfcpy's description>" and "ndef <the message as hex>" (empty for an empty
message); exits 1 when no tag or no NDEF is found within 5 seconds.
"""
import sys
import time

import nfc
import nfc.clf.pn532
import nfc.clf.transport


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("read", "write"):
        sys.exit(__doc__)
    port = sys.argv[1]
    clf = nfc.ContactlessFrontend()
    # ContactlessFrontend.open() only finds /dev/tty* names: open the device directly.
    clf.device = nfc.clf.pn532.init(nfc.clf.transport.TTY(port))
    clf.device._path = port
    try:
        started = time.time()
        tag = clf.connect(rdwr={"on-connect": lambda tag: False},
                          terminate=lambda: time.time() - started > 5)
        if tag is None or tag.ndef is None:
            print("no tag with NDEF found")
            return 1
        if sys.argv[2] == "write":
            tag.ndef.octets = bytes.fromhex(sys.argv[3])
        print("tag %s" % tag)
        print("ndef %s" % bytes(tag.ndef.octets).hex().upper())
        return 0
    finally:
        clf.close()


if __name__ == "__main__":
    sys.exit(main())
