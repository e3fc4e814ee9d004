// Forwards the bare name winscard.h includes to pcsc-lite's header (see CPCSC.h).
#include <PCSC/pcsclite.h>
