/// Where the bytes of an NDEF Message TLV go: the T byte, the length field, the message and
/// the Terminator TLV, each at the address a reader walking the data area finds it.
///
/// NFC Forum Type 2 Tag 1.1, 2.3 and 2.2.1: every byte of a TLV block, T, L and V, skips the
/// bytes the Lock Control and Memory Control TLVs before it reserve. A MIFARE Classic data
/// area is laid out the same way over the data blocks of its NFC sectors (AN1304).
struct Type2MessageLayout {
    /// The T byte (03h).
    let typeAddress: Int
    /// The length field: one byte below 255, else FFh and two big-endian bytes.
    let lengthAddresses: [Int]
    /// The message bytes, in order.
    let valueAddresses: [Int]
    /// The Terminator TLV, when a byte is left after the message.
    let terminatorAddress: Int?
    /// The bytes each address must hold.
    let target: [Int: UInt8]
    /// The length field's bytes.
    let lengthField: [UInt8]

    /// Lays out `message` from `typeAddress` over `free` (the usable byte runs, in order).
    ///
    /// Returns nil when the T, L and message bytes do not fit.
    init?(message: [UInt8], typeAddress: Int, free: [Range<Int>]) {
        guard let header = try? TagTLV.header(type: 0x03, length: message.count) else { return nil }
        let needed = header.count + message.count
        var addresses: [Int] = []
        addresses.reserveCapacity(needed + 1)
        runs: for run in free {
            for address in run {
                addresses.append(address)
                if addresses.count == needed + 1 { break runs }
            }
        }
        guard addresses.count >= needed, addresses.first == typeAddress else { return nil }
        self.typeAddress = typeAddress
        self.lengthAddresses = Array(addresses[1..<header.count])
        self.valueAddresses = Array(addresses[header.count..<needed])
        self.terminatorAddress = addresses.count > needed ? addresses[needed] : nil
        self.lengthField = Array(header.dropFirst())
        var target: [Int: UInt8] = [typeAddress: 0x03]
        for (address, value) in zip(lengthAddresses, lengthField) { target[address] = value }
        for (address, value) in zip(valueAddresses, message) { target[address] = value }
        if let terminatorAddress { target[terminatorAddress] = 0xFE }
        self.target = target
    }

    /// The first length byte: the one whose value decides what a reader sees.
    var firstLengthAddress: Int { lengthAddresses.first ?? typeAddress + 1 }

    /// The pages holding any byte of the TLV or the Terminator, in address order.
    var pages: [Int] { units(ofSize: Type2Page.size) }

    /// The units of `size` bytes (Type 2 pages, MIFARE Classic blocks) holding any byte of the
    /// TLV or the Terminator, by number, in address order.
    func units(ofSize size: Int) -> [Int] {
        Set(target.keys.map { $0 / size }).sorted()
    }

    /// What `page` carries, in words: message byte numbers, length bytes, the Terminator.
    func contents(of page: Int) -> String { contents(ofBytes: Type2Page.bytes(of: page)) }

    /// What the bytes of `range` carry, in words: message byte numbers, length bytes, the
    /// Terminator.
    func contents(ofBytes range: Range<Int>) -> String {
        var parts: [String] = []
        let values = Self.positions(in: valueAddresses, within: range)
        if let first = values.first, let last = values.last {
            parts.append(
                first == last
                    ? "message byte \(first) of \(valueAddresses.count)"
                    : "message bytes \(first)-\(last) of \(valueAddresses.count)")
        }
        let lengths = Self.positions(in: lengthAddresses, within: range).filter { $0 > 0 }
        if let first = lengths.first, let last = lengths.last {
            parts.append(first == last ? "length byte \(first + 1)" : "length bytes \(first + 1)-\(last + 1)")
        }
        if let terminatorAddress, range.contains(terminatorAddress) { parts.append("Terminator TLV") }
        return parts.joined(separator: ", ")
    }

    /// The positions in `addresses` (ascending, as the layout lays them out) of the addresses
    /// inside `range`, found by binary search: a plan asks this for every page it writes.
    private static func positions(in addresses: [Int], within range: Range<Int>) -> Range<Int> {
        func firstPosition(notBelow bound: Int) -> Int {
            var low = 0
            var high = addresses.count
            while low < high {
                let middle = low + (high - low) / 2
                if addresses[middle] < bound { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return firstPosition(notBelow: range.lowerBound)..<firstPosition(notBelow: range.upperBound)
    }
}
