import HexText
import NDEF
import NFCSession
import TagMemory
import TagSimulator

extension SimulatedReader {
    /// Opens the reader a `sim:` URL names (see ``SimulatedReaderURL``).
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for a bad URL; a tag file
    ///   that is neither a dump of a known Type 2 chip nor a Type 4 tag's state text; a file of
    ///   the other kind of tag than the URL's chip, of another Type 2 chip, or whose UID (or,
    ///   for `sim:type4`, an option given) differs from the URL's; a new `.t4t` file for a
    ///   Type 2 chip. ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the file cannot
    ///   be read.
    public convenience init(url: String) async throws(NFCReaderError) {
        try await self.init(url: try SimulatedReaderURL(parsing: url), name: url)
    }

    /// Opens the reader `url` describes; `name` defaults to the URL's canonical text.
    ///
    /// - Throws: as ``init(url:)``.
    public convenience init(url: SimulatedReaderURL, name: String? = nil) async throws(NFCReaderError) {
        let readerName = name ?? url.description
        let signing = try await SimulatedTagSigning.make(url, readerName: readerName)
        if let supply = url.supply {
            try await self.init(url: url, supply: supply, name: readerName, signing: signing)
            armUnplug(url.unplug)
            armProcessSignal(url.processSignal)
            return
        }
        guard let path = url.filePath else {
            var field = SimulatedField(
                try signing.apply(to: Self.newTag(url, readerName: readerName), readerName: readerName))
            field.arm(url.faults)
            self.init(name: readerName, field: field)
            armUnplug(url.unplug)
            armProcessSignal(url.processSignal)
            return
        }
        let tag: SimulatedTag
        let store: SimulatedTagStore
        // A file in a folder that is not there could never be saved: say so now, not at the first write.
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "./"
        try await SimulatedTagStore.checkFolder(path: folder, tagFile: path)
        // The tag is in this reader's field only: another reader holding the file sees no tag.
        let lock = try await SimulatedTagStore.takeLock(forTagFile: path)
        if let loaded = try await SimulatedTagStore.load(path: path) {
            try Self.check(loaded.tag, from: path, against: url, readerName: readerName)
            tag = try signing.apply(to: loaded.tag, readerName: readerName)
            store = loaded.store
        } else {
            let holding = url.tagKind.holding
            if holding != .type4, SimulatedTagFile.pathExtension(path) == SimulatedTagFile.type4Extension {
                throw SimulatedReaderURL.error(
                    readerName,
                    "a .\(SimulatedTagFile.type4Extension) file keeps a Type 4 tag: name a dump file ("
                        + (holding == .classic
                            ? ".mfd, .txt) for a MIFARE Classic card"
                            : ".nfc, .json, .bin, .txt, .mfd) for a Type 2 chip"))
            }
            tag = try signing.apply(to: Self.newTag(url, readerName: readerName), readerName: readerName)
            store = SimulatedTagStore(file: SimulatedTagFile(path: path, holding: holding))
        }
        var field = SimulatedField(tag)
        field.arm(url.faults)
        self.init(name: readerName, field: field, store: store, persistedUID: tag.uid)
        withState { state in
            state.fileSource = FileSource(url: url, readerName: readerName, signing: signing)
            state.fileLock = lock
        }
        armUnplug(url.unplug)
        armProcessSignal(url.processSignal)
    }

    /// For a `file=PATH` reader whose tag another reader holds: takes the file's lock if it is
    /// free now, then loads the tag again as that reader left it (checked against the URL) into a
    /// field armed with the URL's faults. Whether this reader holds the tag.
    func takeTagFile() async throws(NFCReaderError) -> Bool {
        guard let path = filePath, let source = withState({ $0.fileLock == nil ? $0.fileSource : nil }) else {
            return true
        }
        guard let lock = try await SimulatedTagStore.takeLock(forTagFile: path) else { return false }
        let loaded: (tag: SimulatedTag, store: SimulatedTagStore)?
        do {
            loaded = try await SimulatedTagStore.load(path: path)
            if let loaded { try Self.check(loaded.tag, from: path, against: source.url, readerName: source.readerName) }
        } catch {
            await SimulatedTagStore.release(lock)
            throw error
        }
        withState { state in
            state.fileLock = lock
            guard let loaded else { return }
            let tag = (try? source.signing.apply(to: loaded.tag, readerName: source.readerName)) ?? loaded.tag
            var field = SimulatedField(tag)
            field.arm(source.url.faults)
            state.field = field
            state.keep(loaded.tag, in: loaded.store)
        }
        return true
    }

    /// Arms the unplug a URL describes, if any.
    private func armUnplug(_ unplug: SimulatedReaderURL.Unplug?) {
        guard let unplug else { return }
        self.unplug(afterCommands: unplug.afterCommands, for: unplug.duration)
    }

    /// A reader fed by a supply of factory tags of `url`'s chip; with `file=DIR/`, a tag that has
    /// a file in DIR (`UID.nfc`, `UID.t4t` for `sim:type4`) is loaded from it instead, as the
    /// last process left it.
    private convenience init(
        url: SimulatedReaderURL, supply: SimulatedReaderURL.Supply, name: String, signing: SimulatedTagSigning
    ) async throws(NFCReaderError) {
        let uids = SimulatedTagSupply.uids(count: supply.count, seed: supply.seed)
        var loaded: [[UInt8]: (tag: SimulatedTag, file: SimulatedTagFile)] = [:]
        if let directory = url.filePath {
            try await SimulatedTagStore.checkFolder(path: directory)
            let paths = uids.map { Self.supplyFilePath(uid: $0, directory: directory, holding: url.tagKind.holding) }
            for (uid, found) in zip(uids, try await SimulatedTagStore.loadAll(paths: paths)) {
                guard let found else { continue }
                try Self.check(found.tag, from: found.file.path, against: url, readerName: name)
                guard found.tag.uid == uid else {
                    throw SimulatedReaderURL.error(
                        name,
                        "the tag file \(found.file.path) holds the tag with UID "
                            + "\(Hex.encode(found.tag.uid, uppercase: true)), not the one its name gives"
                    )
                }
                loaded[uid] = found
            }
        }
        var tags: [SimulatedTag] = []
        for uid in uids {
            if let found = loaded[uid] {
                tags.append(try signing.apply(to: found.tag, readerName: name))
                continue
            }
            var tagURL = url
            tagURL.uid = uid
            if let tag = try? Self.newTag(tagURL, readerName: name) {
                tags.append(try signing.apply(to: tag, readerName: name))
            }
        }
        let stack = SimulatedTagSupply(tags: tags, duplicateAt: supply.duplicate, faults: url.faults)
        self.init(
            name: name, supply: stack, swapTime: .milliseconds(supply.swapMilliseconds), directory: url.filePath,
            files: loaded.mapValues(\.file), capabilities: Self.defaultCapabilities)
    }

    /// A factory tag as `url` describes it.
    private static func newTag(_ url: SimulatedReaderURL, readerName: String) throws(NFCReaderError) -> SimulatedTag {
        switch url.tagKind {
        case .type2(let chip):
            return .type2(SimulatedType2Tag(chip: chip, uid: url.uid ?? SimulatedType2Tag.defaultUID))
        case .classic(let type):
            return .classic(SimulatedClassicTag(type: type, uid: url.uid ?? SimulatedClassicTag.defaultUID))
        case .type4(let settings):
            do {
                if settings.isNTAG424 {
                    return .type4(try SimulatedType4Tag(ntag424UID: url.uid ?? SimulatedType4Tag.defaultUID))
                }
                return .type4(try SimulatedType4Tag(configuration: settings.configuration(uid: url.uid)))
            } catch {
                throw SimulatedReaderURL.error(readerName, "the Type 4 options make no tag: \(error.reason)")
            }
        }
    }

    /// Checks that the tag loaded from `path` is the one `url` names.
    static func check(
        _ tag: SimulatedTag, from path: String, against url: SimulatedReaderURL, readerName: String
    ) throws(NFCReaderError) {
        switch (url.tagKind, tag) {
        case (.classic(let type), .classic(let loaded)):
            guard loaded.type == type else {
                throw SimulatedReaderURL.error(
                    readerName,
                    "the tag file \(path) is an image of a \(loaded.type), not a \(type): open it with "
                        + SimulatedReaderURL.scheme + SimulatedReaderURL.name(of: tag))
            }
        case (.classic(let type), _):
            throw SimulatedReaderURL.error(
                readerName,
                "the tag file \(path) does not hold a \(type): open it with "
                    + SimulatedReaderURL.scheme + SimulatedReaderURL.name(of: tag))
        case (_, .classic(let loaded)):
            throw SimulatedReaderURL.error(
                readerName,
                "the tag file \(path) is an image of a \(loaded.type): open it with "
                    + SimulatedReaderURL.scheme + SimulatedReaderURL.name(of: tag))
        case (.type2(let chip), .type2(let loaded)):
            guard loaded.chip == chip else {
                throw SimulatedReaderURL.error(
                    readerName, "the tag file \(path) is a dump of \(loaded.chip.name), not \(chip.name)")
            }
        case (.type2(let chip), .type4):
            throw SimulatedReaderURL.error(
                readerName,
                "the tag file \(path) holds a simulated Type 4 tag, not \(chip.name): open it with "
                    + "\(SimulatedReaderURL.scheme)\(SimulatedReaderURL.type4ChipName)")
        case (.type4, .type2(let loaded)):
            let name =
                SimulatedReaderURL.chipNames.first { $0.chip == loaded.chip }?.name ?? loaded.chip.typeCode.lowercased()
            throw SimulatedReaderURL.error(
                readerName,
                "the tag file \(path) is a dump of \(loaded.chip.name), a Type 2 tag, not a Type 4 tag: open it with "
                    + "\(SimulatedReaderURL.scheme)\(name)")
        case (.type4(let settings), .type4(let loaded)):
            guard settings.isNTAG424 == (loaded.ntag424 != nil) else {
                throw SimulatedReaderURL.error(
                    readerName,
                    "the tag file \(path) holds " + (settings.isNTAG424 ? "a plain Type 4 tag" : "an NTAG 424 DNA")
                        + ": open it with \(SimulatedReaderURL.scheme)"
                        + (settings.isNTAG424 ? SimulatedReaderURL.type4ChipName : SimulatedReaderURL.ntag424ChipName))
            }
            let conflicts = settings.conflicts(with: loaded.configuration)
            guard conflicts.isEmpty else {
                throw SimulatedReaderURL.error(
                    readerName,
                    "\(conflicts.joined(separator: ", ")) differs from the tag file \(path); leave the option out to "
                        + "use the file's")
            }
        }
        if let uid = url.uid, uid != tag.uid {
            throw SimulatedReaderURL.error(
                readerName, "uid= differs from the UID in the tag file \(path); leave uid= out to use the file's")
        }
    }
}
