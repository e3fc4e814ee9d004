import NDEFCommandLine
import SystemSupport

// libnfc's own log on standard error stays off unless LIBNFC_LOG_LEVEL asks for it: the
// LibNFCReader library's default (LibNFCLog), as ndeftool reports libnfc's failures itself.

let status = await NDEFCommandLine.main(CommandLine.arguments)
// Ends without running the libraries' destructors: pcsc-lite's frees its list of contexts, and a
// PC/SC call still in progress on another thread (a card watch that was stopped and is releasing
// its context, a wait it cancels) then reads freed memory: a crash after the command's work was
// done (seen after 'ndeftool readers' on a loaded machine). Nothing of ndeftool's waits on exit:
// its files are written and synced before a command returns; standard I/O is flushed here.
fflush(nil)
_exit(status)
