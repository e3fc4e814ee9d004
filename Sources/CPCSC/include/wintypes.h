// Forwards the bare name pcsclite.h includes to pcsc-lite's header (see CPCSC.h).
#include <PCSC/wintypes.h>
