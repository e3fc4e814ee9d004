/// The reader-driver features of PC/SC 2.02 Part 10 (section 2.2) that the backend uses: the
/// feature list of `CM_IOCTL_GET_FEATURE_REQUEST` and the TLV properties of
/// `FEATURE_GET_TLV_PROPERTIES`.
enum Part10Properties {
    /// `SCARD_CTL_CODE(3400)`: asks the driver for its features (Part 10, 2.2).
    static let featureRequestCode: UInt32 = 0x4200_0000 + 3400
    /// `FEATURE_GET_TLV_PROPERTIES` (Part 10, 2.3).
    static let tlvPropertiesFeature: UInt8 = 0x12
    /// `PCSCv2_PART10_PROPERTY_dwMaxAPDUDataSize` (Part 10, 2.6.14).
    static let maximumAPDUDataSizeTag: UInt8 = 0x0A

    /// The control code of `feature` in a feature-request answer: TLVs of a tag byte, a length
    /// byte of 4 and the control code most significant byte first. Nil when it is not listed or
    /// the answer is malformed.
    static func controlCode(of feature: UInt8, in answer: [UInt8]) -> UInt32? {
        var index = 0
        while index + 2 <= answer.count {
            let tag = answer[index]
            let length = Int(answer[index + 1])
            let valueStart = index + 2
            guard valueStart + length <= answer.count else { return nil }
            if tag == feature, length == 4 {
                return answer[valueStart..<valueStart + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            index = valueStart + length
        }
        return nil
    }

    /// The value of property `tag` in a TLV-properties answer: TLVs of a tag byte, a length byte
    /// and a value of 1, 2 or 4 bytes, least significant byte first. Nil when it is not there or
    /// the answer is malformed.
    static func property(_ tag: UInt8, in answer: [UInt8]) -> Int? {
        var index = 0
        while index + 2 <= answer.count {
            let found = answer[index]
            let length = Int(answer[index + 1])
            let valueStart = index + 2
            guard valueStart + length <= answer.count else { return nil }
            if found == tag, [1, 2, 4].contains(length) {
                return answer[valueStart..<valueStart + length].reversed().reduce(0) { $0 << 8 | Int($1) }
            }
            index = valueStart + length
        }
        return nil
    }
}
