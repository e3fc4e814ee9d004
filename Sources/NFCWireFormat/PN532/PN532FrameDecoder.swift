/// Finds ``PN532Frame``s in the bytes arriving on the PN532's serial line (PN532 User Manual
/// UM0701, 6.2.1), however the reads split them.
///
/// Bytes before a start code `00 FF` are skipped: the preamble, the host's wake-up sequence
/// (`55 55 00 00 00 ...`, UM0701 6.2.2 and 7.2.11), postambles and noise. A frame whose length
/// checksum (LCS) or data checksum (DCS) is wrong is dropped, as the PN532 drops it (it sends
/// nothing back, and the host sends the frame again after its time-out); decoding resumes
/// right after that frame's start code, so a good frame hidden behind a bad header is still
/// found. An information frame longer than ``maximumLength`` is refused without waiting for
/// its bytes. A header whose frame never completes (the host gave up half-way) is dropped by
/// ``abandonPartialFrame()``. The buffer never holds more than one frame's worth of bytes
/// beyond what was appended last; no input traps.
public struct PN532FrameDecoder: Sendable {
    /// What ``next()`` found.
    public enum Item: Sendable, Hashable {
        case frame(PN532Frame)
        case rejected(Rejection)
    }

    /// Why bytes that began like a frame were dropped.
    public enum Rejection: Sendable, Hashable, CustomStringConvertible {
        /// LEN + LCS (or LENM + LENL + LCS) is not 0.
        case lengthChecksum
        /// TFI + data + DCS is not 0.
        case dataChecksum
        /// LEN is 0: an information frame without TFI.
        case emptyFrame
        /// LEN is more than the PN532 takes.
        case tooLong(Int)
        /// The frame stopped arriving before its end.
        case incomplete

        public var description: String {
            switch self {
            case .lengthChecksum: "a frame with a wrong length checksum (LCS) was dropped"
            case .dataChecksum: "a frame with a wrong data checksum (DCS) was dropped"
            case .emptyFrame: "a frame of length 0 was dropped"
            case .tooLong(let length): "a frame of \(length) bytes (more than the PN532 takes) was dropped"
            case .incomplete: "a frame that stopped arriving half-way was dropped"
            }
        }
    }

    /// The longest information frame (TFI and data) accepted.
    public let maximumLength: Int
    private var buffer: [UInt8] = []

    /// A decoder taking information frames of up to `maximumLength` bytes (the PN532's host
    /// buffer by default).
    public init(maximumLength: Int = PN532Frame.maximumHostLength) {
        self.maximumLength = max(1, min(maximumLength, 0xFFFF))
    }

    /// The bytes held, waiting for the rest of a frame.
    public var bufferedCount: Int { buffer.count }

    /// Whether the bytes held begin a frame (a start code and more).
    public var holdsPartialFrame: Bool { buffer.count >= 2 && buffer[0] == 0x00 && buffer[1] == 0xFF }

    /// Adds bytes read from the line.
    public mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        buffer.append(contentsOf: bytes)
    }

    /// The next frame or rejection; nil when the bytes held are not a whole frame yet.
    public mutating func next() -> Item? {
        guard let start = startCode() else {
            // Keep a last 00: it may be the first byte of a start code.
            let keep = buffer.last == 0x00 ? 1 : 0
            buffer.removeFirst(buffer.count - keep)
            return nil
        }
        buffer.removeFirst(start)
        guard buffer.count >= 4 else { return nil }
        let length = buffer[2]
        let lengthCheck = buffer[3]
        switch (length, lengthCheck) {
        case (0x00, 0xFF):
            buffer.removeFirst(4)
            return .frame(.ack)
        case (0xFF, 0x00):
            buffer.removeFirst(4)
            return .frame(.nack)
        case (0xFF, 0xFF):
            guard buffer.count >= 7 else { return nil }
            guard PN532Frame.checksum(buffer[4...6]) == 0 else { return reject(.lengthChecksum) }
            return body(length: Int(buffer[4]) << 8 | Int(buffer[5]), at: 7)
        default:
            guard length &+ lengthCheck == 0 else { return reject(.lengthChecksum) }
            return body(length: Int(length), at: 4)
        }
    }

    /// Drops the frame whose start is held (its bytes stopped coming): decoding resumes after
    /// its start code. Returns the rejection, nil when no frame was begun.
    public mutating func abandonPartialFrame() -> Item? {
        guard holdsPartialFrame else { return nil }
        return reject(.incomplete)
    }

    /// The index of the first start code `00 FF`, dropping nothing; nil when there is none.
    private func startCode() -> Int? {
        var index = 0
        while index + 1 < buffer.count {
            if buffer[index] == 0x00, buffer[index + 1] == 0xFF { return index }
            index += 1
        }
        return nil
    }

    /// The information frame of `length` bytes starting at `offset`, when all of it and its
    /// DCS are held.
    private mutating func body(length: Int, at offset: Int) -> Item? {
        guard length > 0 else { return reject(.emptyFrame) }
        guard length <= maximumLength else { return reject(.tooLong(length)) }
        guard buffer.count >= offset + length + 1 else { return nil }
        let information = Array(buffer[offset..<(offset + length)])
        guard PN532Frame.checksum(information) &+ buffer[offset + length] == 0 else {
            return reject(.dataChecksum)
        }
        buffer.removeFirst(offset + length + 1)
        return .frame(.information(information))
    }

    /// Drops the start code at the front and reports `reason`.
    private mutating func reject(_ reason: Rejection) -> Item {
        buffer.removeFirst(min(2, buffer.count))
        return .rejected(reason)
    }
}
