import SystemSupport

/// The process's resident set size, from /proc/self/status (VmRSS), in kibibytes; 0 when it
/// cannot be read.
enum ResidentMemory {
    static func kibibytes() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmRSS:") else { continue }
            return Int(text.dropFirst("VmRSS:".count).filter(\.isNumber)) ?? 0
        }
        return 0
    }
}
