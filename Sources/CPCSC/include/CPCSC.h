// pcsc-lite's client library (libpcsclite): the PC/SC API that talks to pcscd.
//
// Its headers live in /usr/include/PCSC and include each other by bare name
// (`#include <pcsclite.h>`), which is why libpcsclite.pc adds -I/usr/include/PCSC, together
// with -pthread, a flag a Swift package may not pass. This target includes them as
// <PCSC/...> instead, and pcsclite.h and wintypes.h next to this file forward the bare
// names, so no flag from pkg-config is needed.
#include <PCSC/winscard.h>
#include <PCSC/reader.h>
