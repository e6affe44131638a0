#if canImport(Glibc)
import Glibc
#endif

/// A plugin index cache file's bytes as read, in memory that never moves: the records of a warm start point into
/// it (through `SectionBytes`) instead of each section being copied out. `@unchecked Sendable`: the bytes are
/// written only while the file is read, before the image is shared.
final class PluginIndexCacheImage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    /// Reads up to `size` bytes of `descriptor`; fewer when the file is shorter now.
    init(reading descriptor: Int32, size: Int) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 8)
        var filled = 0
        while filled < size {
            let count = Glibc.read(descriptor, memory.baseAddress! + filled, size - filled)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(memory)[0..<filled])
    }

    /// A copy of `source`, for decoding bytes that were not read from a file.
    init(copying source: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 8)
        source.withUnsafeBytes { memory.copyMemory(from: $0) }
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(memory)[0..<source.count])
    }

    deinit {
        UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate()
    }
}
