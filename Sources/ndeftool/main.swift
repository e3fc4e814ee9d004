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

let status = await NDEFCommandLine.main(CommandLine.arguments)
// Ends without running the libraries' destructors: pcsc-lite's frees its list of contexts, and a
// PC/SC call still in progress on another thread (a card watch that was stopped and is releasing
// its context, a wait it cancels) then reads freed memory: a crash after the command's work was
// done (seen after 'ndeftool readers' on a loaded machine). Nothing of ndeftool's waits on exit:
// its files are written and synced before a command returns; standard I/O is flushed here.
fflush(nil)
_exit(status)
