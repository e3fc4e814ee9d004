// The platform's C library, named in this one file: every module that imports SystemSupport
// sees it (`open`, `poll`, `errno`, `pthread_create`), so no other file chooses between Glibc,
// Musl and Darwin.
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#endif
