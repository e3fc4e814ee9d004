/// Collects the page writes of a Type 2 plan against a working copy of the image.
///
/// Every step writes a whole page (WRITE, T2T 1.1 5.2): the builder fills the bytes a plan
/// does not mean to change with their current value, leaves out writes that would not
/// change the page, and notes whether a step reaches a password-protected page.
struct Type2PlanBuilder {
    /// The image as it will be after the steps so far.
    private(set) var bytes: [UInt8]
    /// The steps so far.
    private(set) var steps: [PlanStep] = []
    /// Whether a step writes a page at or after ``protectionStart``.
    private(set) var requiresAuthentication = false
    /// The first page that needs authentication for WRITE, if protection is on.
    let protectionStart: Int?

    init(memory: Type2Memory) {
        self.bytes = memory.bytes
        self.protectionStart = memory.firstWriteProtectedPage
    }

    /// The current content of `page`, or nil if the image does not hold all of it.
    func content(of page: Int) -> [UInt8]? {
        let range = Type2Page.bytes(of: page)
        guard page >= 0, range.upperBound <= bytes.count else { return nil }
        return Array(bytes[range])
    }

    /// `page` with the bytes of `changes` (byte address → value) that fall in it.
    func content(of page: Int, with changes: [Int: UInt8]) -> [UInt8]? {
        guard var data = content(of: page) else { return nil }
        for (offset, address) in Type2Page.bytes(of: page).enumerated() {
            if let value = changes[address] { data[offset] = value }
        }
        return data
    }

    /// Adds a write of `data` to `page` unless the page already holds it (a secret step is
    /// always written: the image cannot show PWD or PACK, which read back as zeros).
    ///
    /// - Returns: whether a step was added.
    @discardableResult
    mutating func write(page: Int, data: [UInt8], reason: String, isSecret: Bool = false) -> Bool {
        let range = Type2Page.bytes(of: page)
        guard data.count == Type2Page.size, page >= 0, range.upperBound <= bytes.count else { return false }
        if !isSecret, Array(bytes[range]) == data { return false }
        bytes.replaceSubrange(range, with: data)
        steps.append(PlanStep(address: page, data: data, reason: reason, isSecret: isSecret))
        if let protectionStart, page >= protectionStart { requiresAuthentication = true }
        return true
    }

    /// The plan built.
    var plan: TagWritePlan { TagWritePlan(steps: steps, requiresAuthentication: requiresAuthentication) }
}
