import CommandLineKit
import NFCReaders
import NFCSession
import Provisioning
import SimulatedReader
import TagMemory
import TagSimulator

/// The readers of a batch, one station each: every `--reader` given (a URL, a number from
/// `ndeftool readers`, or `all` for every PC/SC reader and libnfc device), or the reader the tag
/// commands would choose.
enum BatchStations {
    /// The open stations and their devices (to close at the end).
    struct Opened {
        var stations: [ProvisioningStation] = []
        var devices: [any NFCReaderDevice] = []
        /// The largest NDEF message a tag of these readers holds, when every reader is a
        /// simulated Type 2 chip (a factory tag of it); nil when a reader's tags are unknown.
        var largestTagCapacity: Int?

        /// Closes every reader.
        func close() async {
            for device in devices { await device.close() }
        }
    }

    /// Opens the readers `invocation` names.
    ///
    /// - Throws: a usage error for a reader named twice or a bad URL; the errors of opening a
    ///   reader (``ExitStatus/unavailable``), after closing those already open.
    static func open(_ invocation: CommandInvocation, console: TagConsole) async throws(CommandLineError) -> Opened {
        let addresses = try await addresses(invocation, console: console)
        var opened = Opened()
        opened.largestTagCapacity = largestCapacity(addresses)
        for address in addresses {
            do {
                let (device, hasNoMoreTags) = try await open(address, console: console)
                opened.devices.append(device)
                opened.stations.append(
                    ProvisioningStation(name: address.identity, reader: device, hasNoMoreTags: hasNoMoreTags))
            } catch {
                await opened.close()
                throw error
            }
        }
        return opened
    }

    /// The largest NDEF capacity of a factory tag of the readers' chips, when every reader is a
    /// simulated Type 2 chip; else nil.
    static func largestCapacity(_ addresses: [ReaderAddress]) -> Int? {
        var largest = 0
        for address in addresses {
            guard case .simulated(let url, _) = address, case .type2(let chip) = url.tagKind else { return nil }
            largest = max(largest, largestCapacity(chip: chip))
        }
        return addresses.isEmpty ? nil : largest
    }

    /// The NDEF capacity of a factory tag of `chip` (NTAG213: 137 bytes).
    static func largestCapacity(chip: Type2Chip) -> Int {
        let factory = SimulatedType2Tag(chip: chip, uid: SimulatedType2Tag.defaultUID)
        return Type2Memory(bytes: factory.bytes, chip: chip).ndefStatus.capacity
    }

    /// The readers named, in order.
    private static func addresses(
        _ invocation: CommandInvocation, console: TagConsole
    ) async throws(CommandLineError) -> [ReaderAddress] {
        let io = invocation.io
        var addresses: [ReaderAddress] = []
        // As the tag commands do: the --reader options, else NDEFTOOL_READER, else the automatic choice.
        var texts = invocation.values.values(BatchCommand.reader.long)
        var origin = "--reader"
        if texts.isEmpty, let variable = io.environment(TagOptions.readerVariable), !variable.isEmpty {
            texts = [variable]
            origin = TagOptions.readerVariable
        }
        for text in texts {
            if text == "all" {
                let (readers, problems) = await ReaderChoice.candidates(
                    pcsc: io.pcsc, libnfc: io.libnfc, remembered: RememberedReader(io: io).load())
                guard !readers.isEmpty else {
                    throw CommandLineError(
                        .unavailable,
                        "\(origin) all: no PC/SC reader or libnfc device is connected"
                            + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"))
                }
                addresses += readers.map(\.address)
            } else if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text) {
                addresses.append(
                    try await ReaderChoice.numbered(
                        number, pcsc: io.pcsc, libnfc: io.libnfc, remembered: RememberedReader(io: io).load()))
            } else {
                addresses.append(try ReaderAddress(parsing: text, origin: origin))
            }
        }
        if addresses.isEmpty {
            addresses.append(
                try await ReaderChoice.automatic(
                    remembered: RememberedReader(io: io), pcsc: io.pcsc, libnfc: io.libnfc, console: console))
        }
        var seen: Set<String> = []
        for address in addresses where !seen.insert(address.identity).inserted {
            throw .usage("The reader \(address) is named twice: each reader is one station")
        }
        return addresses
    }

    /// Opens one reader; for a simulated supply, also whether its tags are used up.
    private static func open(
        _ address: ReaderAddress, console: TagConsole
    ) async throws(CommandLineError) -> (any NFCReaderDevice, (@Sendable () async -> Bool)?) {
        switch address {
        case .simulated(let url, let text):
            let (device, reader) = try await ReaderAddress.openSimulated(url, text: text, wait: .seconds(10))
            guard url.supply != nil else { return (device, nil) }
            return (device, { !reader.supplyHasMore })
        case .pcsc, .libnfc:
            // Exclusive: no other program's commands come between a tag's writes.
            return (try await address.open(console: console, wait: .seconds(10), exclusive: true), nil)
        }
    }
}
