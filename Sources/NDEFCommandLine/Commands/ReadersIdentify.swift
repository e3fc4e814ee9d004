import CommandLineKit
import NFCReaders
import NFCSession

/// `ndeftool readers --identify READER`: blinks a reader's lights so a person can tell which
/// one it is (``NFCSession/NFCReaderSignalling``, ``NFCSession/NFCReaderSignal/identify``).
enum ReadersIdentify {
    static let option = OptionSpec.option(
        "identify", value: "reader",
        help: "Blink the lights of READER (a number or URL, as --reader takes) so you can tell which it is.")

    /// Opens the reader `text` names, sends it the identify signal, closes it.
    ///
    /// - Returns: 0 when the reader showed the signal; 69 when it has no lights ndeftool drives (a
    ///   PC/SC reader without the acr122u profile, a libnfc device) or did not take the command.
    static func run(_ text: String, _ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let io = invocation.io
        let address: ReaderAddress
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            guard let number = Int(text), number >= 1 else {
                throw .usage("Invalid reader '\(text)' in --identify: readers are numbered from 1")
            }
            address = try await ReaderChoice.numbered(number, pcsc: io.pcsc, libnfc: io.libnfc)
        } else {
            address = try ReaderAddress(parsing: text, origin: "--identify")
        }
        let reader = try await address.open(console: nil)
        let style = Style(io: io)
        guard let signalling = reader as? any NFCReaderSignalling, signalling.supportsSignals else {
            await reader.close()
            io.writeError(
                style.error("Error:") + " the reader \(reader.name) has no lights or buzzer ndeftool can drive "
                    + "(only ACR122U-style PC/SC readers, profile acr122u, and simulated readers do)\n")
            return .unavailable
        }
        let shown = await signalling.signal(.identify)
        await reader.close()
        guard shown else {
            io.writeError(
                style.error("Error:") + " the reader \(reader.name) did not take the LED command (an ACR122U "
                    + "takes it only while a tag is on it)\n")
            return .unavailable
        }
        try io.writeOutput("Blinking the lights of \(reader.name)\n")
        return .success
    }
}
