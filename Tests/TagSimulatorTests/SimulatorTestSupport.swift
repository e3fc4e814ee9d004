import NDEF
import TagMemory
import TagSimulator
import TestSupport
import Testing

extension SimulatedType2Tag {
    /// A factory tag of `chip`, already selected.
    static func selected(_ chip: Type2Chip) -> SimulatedType2Tag {
        var tag = SimulatedType2Tag(chip: chip)
        tag.select()
        return tag
    }

    /// WRITE A2h `page` `data`.
    mutating func write(_ page: Int, _ data: String) -> SimulatedType2Response {
        transceive([0xA2, UInt8(truncatingIfNeeded: page)] + hex(data))
    }

    /// READ 30h `page`.
    mutating func read(_ page: Int) -> SimulatedType2Response {
        transceive([0x30, UInt8(truncatingIfNeeded: page)])
    }

    /// PWD_AUTH 1Bh with `password`.
    mutating func authenticate(_ password: String) -> SimulatedType2Response {
        transceive([0x1B] + hex(password))
    }
}
