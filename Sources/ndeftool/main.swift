import NDEFCommandLine

#if canImport(Glibc)
    import Glibc
#endif

exit(await NDEFCommandLine.main(CommandLine.arguments))
