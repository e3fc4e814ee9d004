import CommandLineKit
import NFCSession
import NTAG424

/// Where five NTAG 424 DNA keys come from: a keys file, a master key with the tag's UID
/// (AN10922), or the factory (16 zero bytes each). Keys are read from files only, never from the
/// command line.
enum SDMKeySource {
    case file([[UInt8]], option: String, path: String)
    case master(NTAG424MasterKey, option: String, path: String)
    case factory

    /// The keys of the tag with `uid`.
    func keys(for uid: [UInt8]) throws(CommandLineError) -> [[UInt8]] {
        switch self {
        case .file(let keys, _, _): return keys
        case .master(let master, _, _):
            do {
                return try master.keys(uid: uid)
            } catch {
                throw CommandLineError(.tagError, "the tag's keys cannot be derived: \(error.reason)")
            }
        case .factory: return NTAG424KeySet.factory.keys
        }
    }

    /// The key set of the tag with `uid`.
    func keySet(for uid: [UInt8]) throws(CommandLineError) -> NTAG424KeySet {
        do {
            return try NTAG424KeySet(try keys(for: uid))
        } catch let error as NFCReaderError {
            throw CommandLineError(.tagError, error.reason)
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw CommandLineError(.internalError, "\(error)")
        }
    }

    /// The option the keys came from (`--keys-file`, `--from-master-key-file`, ...), empty for
    /// the factory keys.
    var option: String {
        switch self {
        case .file(_, let option, _), .master(_, let option, _): option
        case .factory: ""
        }
    }

    /// The file the keys came from, as given.
    var path: String {
        switch self {
        case .file(_, _, let path), .master(_, _, let path): path
        case .factory: ""
        }
    }

    /// The source in words, for the plan.
    var description: String {
        switch self {
        case .file(_, let option, _): "from \(option)"
        case .master(_, let option, _): "derived from \(option) (AN10922)"
        case .factory: "the factory keys (16 zero bytes)"
        }
    }

    var isFactory: Bool {
        if case .factory = self { true } else { false }
    }

    /// The source `keysOption` or `masterOption` name (neither: nil; both: a usage error), a
    /// master key's shared SDMMetaRead key at `metaReadKey`.
    static func read(
        _ values: ParsedValues, keysOption: OptionSpec, masterOption: OptionSpec, metaReadKey: Int, fileReadKey: Int
    ) throws(CommandLineError) -> SDMKeySource? {
        switch (values.value(keysOption.long), values.value(masterOption.long)) {
        case (let path?, nil):
            return .file(try SDMKeysFile.read(path, option: keysOption), option: "--" + keysOption.long, path: path)
        case (nil, let path?):
            let key = try SDMKeyFile.read(path, option: masterOption)
            do {
                let master = try NTAG424MasterKey(key, metaReadKey: metaReadKey, fileReadKey: fileReadKey)
                return .master(master, option: "--" + masterOption.long, path: path)
            } catch {
                throw .usage("--\(masterOption.long): \(error.reason)")
            }
        case (.some, .some): throw .usage("give --\(keysOption.long) or --\(masterOption.long), not both")
        case (nil, nil): return nil
        }
    }
}

extension SDMSetupCommand {
    /// The options of `sdm setup`, checked before a reader is opened.
    struct Request {
        /// The URL as given, and its template; nil for `--factory`.
        var url: String?
        var template: NTAG424SDMTemplate?
        /// The keys the tag gets (``SDMKeySource/factory`` for `--factory`).
        var keys: SDMKeySource
        /// The keys the tag holds before: the factory's unless `--from-keys-file` or
        /// `--from-master-key-file` says otherwise.
        var from: SDMKeySource
        var metaReadKey: Int
        var fileReadKey: Int
        var keyVersion: UInt8
        var locksNDEF: Bool
        /// `--factory`: back to the factory keys and settings.
        var isFactoryReset: Bool

        init(_ values: ParsedValues) throws(CommandLineError) {
            isFactoryReset = values.flag(factory.long)
            metaReadKey = try Self.number(values, SDMSetupCommand.metaReadKey, in: 1...4)
            fileReadKey = try Self.number(values, SDMSetupCommand.fileReadKey, in: 1...4)
            keyVersion = UInt8(try Self.number(values, SDMSetupCommand.keyVersion, in: 1...255))
            locksNDEF = values.flag(lockNDEF.long)
            let fromMetaRead = try Self.number(values, fromMetaReadKey, in: 1...4)
            if values.isGiven(fromMetaReadKey.long) && !values.isGiven(fromMasterKeyFile.long) {
                throw .usage("--from-meta-read-key goes with --from-master-key-file")
            }
            let given = try SDMKeySource.read(
                values, keysOption: fromKeysFile, masterOption: fromMasterKeyFile, metaReadKey: fromMetaRead,
                fileReadKey: fromMetaRead == 4 ? 1 : fromMetaRead + 1)
            from = given ?? .factory
            if isFactoryReset {
                guard given != nil else {
                    throw .usage(
                        "--factory needs the keys the tag holds now: --from-keys-file or --from-master-key-file")
                }
                let setUpOptions = [
                    SDMSetupCommand.url, SDMSetupCommand.encData, SDMSetupCommand.lrp, SDMSetupCommand.tagTamper,
                    keysFile, masterKeyFile,
                    SDMSetupCommand.metaReadKey,
                    SDMSetupCommand.fileReadKey, SDMSetupCommand.keyVersion, lockNDEF,
                ]
                if let option = setUpOptions.first(where: { values.isGiven($0.long) }) {
                    throw .usage(
                        "--factory returns the tag to its factory keys and settings: leave out --\(option.long)")
                }
                keys = .factory
                return
            }
            guard let text = values.value(SDMSetupCommand.url.long) else {
                throw .usage("--url is needed: the URL with {picc} and {mac}")
            }
            do {
                let data = values.value(SDMSetupCommand.encData.long).map { Array($0.utf8) }
                template = try NTAG424SDMTemplate(
                    url: text, mode: values.flag(SDMSetupCommand.lrp.long) ? .lrp : .aes, fileData: data,
                    tagTamper: values.flag(SDMSetupCommand.tagTamper.long))
                url = text
            } catch {
                throw .invalidValue(text, for: SDMSetupCommand.url, reason: error.reason)
            }
            guard
                let target = try SDMKeySource.read(
                    values, keysOption: keysFile, masterOption: masterKeyFile, metaReadKey: metaReadKey,
                    fileReadKey: fileReadKey)
            else {
                throw .usage("--keys-file or --master-key-file is needed: the keys the tag gets")
            }
            keys = target
        }

        static func number(_ values: ParsedValues, _ option: OptionSpec, in range: ClosedRange<Int>)
            throws(CommandLineError) -> Int
        {
            let text = values.value(option.long) ?? option.defaultValue ?? ""
            guard let number = Int(text), range.contains(number) else {
                throw .invalidValue(text, for: option, reason: "expected \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }

        /// The plan for the tag with `uid` (not for `--factory`).
        func plan(for uid: [UInt8]) throws(CommandLineError) -> NTAG424SDMPlan {
            guard let template else { throw CommandLineError(.internalError, "a factory reset has no plan") }
            do {
                return try NTAG424SDMPlan(
                    template: template, keys: try keys.keys(for: uid), keyVersion: keyVersion,
                    metaReadKey: metaReadKey, fileReadKey: fileReadKey, locksNDEF: locksNDEF)
            } catch let error as NFCReaderError {
                throw .usage(error.reason)
            } catch let error as CommandLineError {
                throw error
            } catch {
                throw CommandLineError(.internalError, "\(error)")
            }
        }
    }
}
