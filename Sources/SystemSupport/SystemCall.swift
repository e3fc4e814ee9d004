/// The file calls the package makes on descriptors, each retried when a signal interrupts it
/// (through ``valueOrErrno(retryOnInterrupt:_:)``) and each returning the `errno` of its failure.
/// Named apart from the C functions so that types with `read`/`write`/`open`/`close` methods of
/// their own can call them without naming the C library module.
package enum SystemCall {
    /// `open(2)`: the new descriptor.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) -> Result<Int32, Errno> {
        valueOrErrno { cOpen(path, flags, mode) }
    }

    /// `read(2)` into `buffer`: the number of bytes read, 0 at the end of the file.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        valueOrErrno { cRead(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// `write(2)` from `buffer`: the number of bytes written (maybe fewer than asked).
    package static func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        valueOrErrno { cWrite(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// `send(2)` from `buffer` with `flags`: the number of bytes sent.
    package static func send(_ socket: Int32, from buffer: UnsafeRawBufferPointer, flags: Int32) -> Result<Int, Errno> {
        valueOrErrno { cSend(socket, buffer.baseAddress, buffer.count, flags) }
    }

    /// `close(2)`, never retried: on Linux the descriptor is released even when the call is
    /// interrupted, and a retry could close a descriptor another thread has just been given.
    @discardableResult
    package static func close(_ descriptor: Int32) -> Result<Void, Errno> {
        nothingOrErrno(retryOnInterrupt: false) { cClose(descriptor) }
    }
}

private func cOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func cRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
private func cWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
private func cSend(_ socket: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(socket, buffer, count, flags)
}
private func cClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
