import NDEFCommandLine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// libnfc writes its own log lines to standard error at level 1 (errors), such as "Unable to find
// USB busses" on machines without USB; ndeftool reports libnfc's failures itself, with advice. Its
// log stays off unless LIBNFC_LOG_LEVEL asks for it (1 errors, 2 and 3 more, 3 every frame).
setenv("LIBNFC_LOG_LEVEL", "0", 0)

exit(await NDEFCommandLine.main(CommandLine.arguments))
