// pcsc-lite's client library (libpcsclite): the PC/SC API that talks to pcscd.
// The include path /usr/include/PCSC comes from pkg-config (libpcsclite.pc).
#include <winscard.h>
#include <reader.h>
