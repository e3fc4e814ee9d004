// The C library's Unix 98 pseudo-terminal calls (POSIX.1-2008, XSI). glibc declares them only
// for _XOPEN_SOURCE >= 600, which Swift's Glibc module is not built with, so their prototypes
// are repeated here (identical to <stdlib.h>'s). Nothing to link: they are in libc.
#include <stddef.h>

int posix_openpt(int flags);
int grantpt(int fd);
int unlockpt(int fd);
int ptsname_r(int fd, char *buf, size_t buflen);
