import NDEFCommandLine

#if canImport(Glibc)
    import Glibc
#endif

exit(NDEFCommandLine.main(CommandLine.arguments))
