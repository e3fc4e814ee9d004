/// The PC/SC result codes the backend acts on (values from pcsc-lite's `pcsclite.h`, checked
/// against the C header by the tests).
enum PCSCReturn {
    static let cancelled: UInt32 = 0x8010_0002
    static let invalidHandle: UInt32 = 0x8010_0003
    static let noMemory: UInt32 = 0x8010_0006
    static let insufficientBuffer: UInt32 = 0x8010_0008
    static let unknownReader: UInt32 = 0x8010_0009
    static let timeout: UInt32 = 0x8010_000A
    static let sharingViolation: UInt32 = 0x8010_000B
    static let noSmartcard: UInt32 = 0x8010_000C
    static let commError: UInt32 = 0x8010_0013
    static let notTransacted: UInt32 = 0x8010_0016
    static let readerUnavailable: UInt32 = 0x8010_0017
    static let noService: UInt32 = 0x8010_001D
    static let serviceStopped: UInt32 = 0x8010_001E
    static let noReadersAvailable: UInt32 = 0x8010_002E
    static let unresponsiveCard: UInt32 = 0x8010_0066
    static let unpoweredCard: UInt32 = 0x8010_0067
    static let resetCard: UInt32 = 0x8010_0068
    static let removedCard: UInt32 = 0x8010_0069

    /// Codes after which the card handle is useless: the tag left, was reset or the reader went.
    static let cardGone: Set<UInt32> = [
        noSmartcard, notTransacted, removedCard, resetCard, unresponsiveCard, unpoweredCard, readerUnavailable,
        unknownReader,
    ]

    /// Codes after which the context is useless: pcscd stopped or restarted.
    static let serviceGone: Set<UInt32> = [noService, serviceStopped, commError, invalidHandle]
}
