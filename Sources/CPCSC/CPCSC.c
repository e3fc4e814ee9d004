// The target's C source: empty. CPCSC only makes pcsc-lite's headers visible to Swift
// (include/CPCSC.h) and links libpcsclite.
#include "CPCSC.h"
