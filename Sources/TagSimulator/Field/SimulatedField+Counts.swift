extension SimulatedField {
    /// How many frames of `command` the tags received, summed over every tag (in the field and
    /// removed by a fault).
    public func count(of command: SimulatedType2Command) -> Int { commandCounts[command] ?? 0 }

    /// How many APDUs of `command` the Type 4 tags received, summed over every tag (in the
    /// field and removed by a fault).
    public func count(of command: SimulatedType4Command) -> Int { type4CommandCounts[command] ?? 0 }

    /// How many commands of `command`, frame or APDU, the tags received.
    public func count(of command: Command) -> Int {
        switch command {
        case .type2(let kind): count(of: kind)
        case .type4(let kind): count(of: kind)
        }
    }

    /// The Type 2 frames of each kind the tags received, summed over every tag. Frames sent
    /// after the tags left, lost in flight without reaching a tag, or sent to a Type 4 tag
    /// (which ignores them) are not among them (see ``log``).
    public var commandCounts: [SimulatedType2Command: Int] {
        var counts: [SimulatedType2Command: Int] = [:]
        for tag in tags + removedTags {
            for (command, count) in tag.type2CommandCounts { counts[command, default: 0] += count }
        }
        return counts
    }

    /// The APDUs of each kind the Type 4 tags received, summed over every tag. APDUs sent after
    /// the tags left, lost in flight without reaching a tag, or sent to a Type 2 tag (which
    /// has no ISO-DEP layer) are not among them (see ``log``).
    public var type4CommandCounts: [SimulatedType4Command: Int] {
        var counts: [SimulatedType4Command: Int] = [:]
        for tag in tags + removedTags {
            for (command, count) in tag.type4CommandCounts { counts[command, default: 0] += count }
        }
        return counts
    }

    /// Every kind of command the tags received, frames and APDUs, with its count.
    public var allCommandCounts: [Command: Int] {
        var counts: [Command: Int] = [:]
        for (command, count) in commandCounts { counts[.type2(command)] = count }
        for (command, count) in type4CommandCounts { counts[.type4(command)] = count }
        return counts
    }

    /// The total number of commands, frames and APDUs, the tags received.
    public var totalCommandCount: Int {
        commandCounts.values.reduce(0, +) + type4CommandCounts.values.reduce(0, +)
    }

    /// Forgets every tag's command counts and the log.
    public mutating func resetCommandCounts() {
        log = []
        for index in tags.indices { tags[index].resetCommandCounts() }
        for index in removedTags.indices { removedTags[index].resetCommandCounts() }
    }
}
