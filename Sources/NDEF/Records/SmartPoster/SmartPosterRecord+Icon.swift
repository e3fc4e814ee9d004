extension SmartPosterRecord {
    /// An icon of a smart poster: a media record of an `image/*` or `video/*` type
    /// (Smart Poster RTD 1.0, section 3.3.4).
    ///
    /// JSON form: `{"mediaType": "image/png", "dataHex": "89504e47..."}`.
    public struct Icon: Sendable, Hashable, Codable {
        /// The media type, for example `image/png`.
        public var mediaType: String
        /// The image or video data.
        public var data: [UInt8]

        /// Creates an icon.
        public init(mediaType: String, data: [UInt8]) {
            self.mediaType = mediaType
            self.data = data
        }

        enum CodingKeys: String, CodingKey {
            case mediaType, dataHex
        }

        /// Decodes the JSON form described above.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.mediaType = try container.decode(String.self, forKey: .mediaType)
            self.data = try container.decodeHex(forKey: .dataHex)
        }

        /// Encodes the JSON form described above.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mediaType, forKey: .mediaType)
            try container.encode(NDEFHex.encode(data), forKey: .dataHex)
        }

        /// Whether a media record of this type is an icon: a valid media type whose top-level
        /// type is `image` or `video`, in any case.
        static func isIconType(_ type: some Collection<UInt8>) -> Bool {
            guard MediaRecord.isValidMediaType(type) else { return false }
            let lower = RecordText.asciiLowercased(String(decoding: type, as: UTF8.self))
            return lower.hasPrefix("image/") || lower.hasPrefix("video/")
        }
    }
}
