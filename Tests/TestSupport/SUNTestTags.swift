import NTAG424

/// URLs as NTAG 424 DNA tags set up from a master key would give them on successive reads,
/// made with ``NTAG424/NTAG424SDMMirror`` (the reference the simulator uses), so that they
/// verify with `sdm verify --master-key-file` or ``NTAG424/NTAG424MasterKey/verify(_:)``.
///
/// Each tag has its own UID (`04` and six bytes of the tag's number) and its own keys
/// (AN10922, key 1 the shared SDMMetaRead key, key 2 the tag's SDMFileRead key), and mirrors
/// encrypted PICCData and the SDMMAC into `https://x.example/t?picc_data={picc}&cmac={mac}`.
public struct SUNTestTags: Sendable {
    /// One URL: the tag's UID, the counter it carries, and the URL.
    public struct Read: Sendable, Hashable {
        public var uid: [UInt8]
        public var counter: Int
        public var url: String
    }

    /// The master key: the bytes 00 01 ... 0F, as `Fixtures/examples/sdm-master.hex` holds them.
    public static let masterKey: [UInt8] = Array(0...15)

    /// The tags' UIDs, in order.
    public let uids: [[UInt8]]
    /// The master key the tags' keys come from.
    public let master: NTAG424MasterKey
    private let template: NTAG424SDMTemplate
    private let sdm: NTAG424FileSettings.SDM

    /// `count` tags of ``masterKey``.
    public init(count: Int) throws {
        master = try NTAG424MasterKey(Self.masterKey)
        template = try NTAG424SDMTemplate(url: "https://x.example/t?picc_data={picc}&cmac={mac}")
        guard let sdm = template.settings(metaReadKey: 1, fileReadKey: 2, lockNDEF: true).sdm else {
            throw NTAG424Error(.invalidSettings, "the SDM template has no SDM settings")
        }
        self.sdm = sdm
        uids = (0..<count).map { number in
            [0x04, 0x5A] + (0..<5).map { UInt8(truncatingIfNeeded: number >> (8 * (4 - $0))) }
        }
    }

    /// The URL tag `tag` (0, 1, ...) gives when its counter is `counter`.
    public func read(tag: Int, counter: Int) throws -> Read {
        let uid = uids[tag]
        var file = template.file
        file += [UInt8](repeating: 0, count: 256 - file.count)
        let mirror = NTAG424SDMMirror(settings: sdm, keys: try master.keys(uid: uid))
        let bytes = try mirror.read(file: file, uid: uid, counter: counter, padding: [1, 2, 3, 4, 5])
        // The file: NLEN (2), the record's header (3), its type (U), the URI's prefix code (04:
        // https://), then the rest of the URL up to the end of the template's message.
        let url = "https://" + String(decoding: bytes[7..<template.file.count], as: UTF8.self)
        return Read(uid: uid, counter: counter, url: url)
    }

    /// Every tag's URLs for the counters `counters`, tag by tag.
    public func reads(counters: ClosedRange<Int>) throws -> [Read] {
        var reads: [Read] = []
        for tag in uids.indices {
            for counter in counters { reads.append(try read(tag: tag, counter: counter)) }
        }
        return reads
    }
}
