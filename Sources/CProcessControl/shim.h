// Process calls of the C library that Swift's Glibc module does not bring in. Nothing to link:
// they are in libc.
#include <spawn.h>
#include <sys/prctl.h>

// glibc 2.34 and 2.29 (<spawn.h>, declared only with __USE_MISC): close every descriptor from
// `from` on, and change the working folder, in the child of posix_spawn. Prototypes identical to
// glibc's.
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);

// prctl(2) is variadic, which Swift cannot call: PR_SET_DUMPABLE 0 keeps the process out of
// core dumps and /proc/PID/mem of other processes of the same user (proc(5), "dumpable").
static inline int process_control_set_dumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

// Whether the process is dumpable (1), not (0), or -1 with errno.
static inline int process_control_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}
