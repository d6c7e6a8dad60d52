import BenchSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One blocking HTTP/1.1 keep-alive connection to `127.0.0.1:port`, for load loops that run
/// one connection per thread.
///
/// The relay bench drives the server from plain sockets so that the client costs a few
/// syscalls per request (as `wrk` would) and needs neither `wrk` nor an HTTP client package,
/// and so that 1,000 idle Server-Sent-Events streams are 1,000 file descriptors and nothing
/// more on the client side. `@unchecked Sendable`: a connection is handed to the one thread
/// that uses it and touched by no other.
final class LoopbackHTTPConnection: @unchecked Sendable {
    struct Response {
        let status: Int
        let body: [UInt8]
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// One receive buffer for the connection's life: the client shares the server's cores, so
    /// it should cost as little per request as it can.
    private var chunk = [UInt8](repeating: 0, count: 16_384)

    /// Connects; `receiveTimeout` bounds every read (nil: block).
    init(port: Int, receiveTimeout: Duration? = nil) throws {
        do {
            descriptor = try LoopbackSocket.connected(port: port) { descriptor in
                var one: Int32 = 1
                setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                guard let receiveTimeout else { return }
                let micros =
                    receiveTimeout.components.seconds * 1_000_000 + receiveTimeout.components.attoseconds
                    / 1_000_000_000_000
                var value = timeval(tv_sec: Int(micros / 1_000_000), tv_usec: .init(micros % 1_000_000))
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
            }
        } catch {
            throw CLIError("relay bench: \(error.message)")
        }
    }

    deinit { _ = close(descriptor) }

    /// `POST path` with a JSON body; reads the whole answer.
    func post(_ path: String, json body: [UInt8]) throws -> Response {
        var request = Array(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                .utf8)
        request += body
        try send(request)
        return try readResponse()
    }

    /// Sends `GET path` and reads only the status line and headers (a stream's body follows).
    func startGet(_ path: String) throws -> Int {
        try send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8))
        return try readHead().status
    }

    /// Bytes already buffered, else one `recv`; empty on timeout, nil when the peer closed.
    func readSome() throws -> [UInt8]? {
        if !buffer.isEmpty {
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        }
        switch try receive() {
        case .data:
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        case .timeout: return []
        case .closed: return nil
        }
    }

    private func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw CLIError("relay bench: write failed, errno \(errno)") }
            offset += written
        }
    }

    private enum Received { case data, timeout, closed }

    /// Appends one `recv` to the buffer.
    private func receive() throws -> Received {
        let descriptor = descriptor
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer += chunk[0..<count]
            return .data
        }
        if count == 0 { return .closed }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .timeout }
        throw CLIError("relay bench: read failed, errno \(errno)")
    }

    private func fill(_ enough: () -> Bool) throws {
        while !enough() {
            switch try receive() {
            case .data, .timeout: continue
            case .closed: throw CLIError("relay bench: the server closed the connection")
            }
        }
    }

    private func readHead() throws -> (status: Int, contentLength: Int?, chunked: Bool) {
        let separator = Array("\r\n\r\n".utf8)
        var end: Int?
        try fill {
            end = Self.find(separator, in: buffer)
            return end != nil
        }
        guard let end else { throw CLIError("relay bench: no response head") }
        let head = String(decoding: buffer[0..<end], as: UTF8.self).lowercased()
        buffer.removeFirst(end + separator.count)
        let lines = head.split(separator: "\r\n")
        let statusField = lines.first?.split(separator: " ").dropFirst().first
        guard let statusField, let status = Int(statusField) else { throw CLIError("relay bench: bad status line") }
        var contentLength: Int?
        var chunked = false
        for line in lines.dropFirst() {
            if line.hasPrefix("content-length:") {
                contentLength = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces))
            }
            if line.hasPrefix("transfer-encoding:") && line.contains("chunked") { chunked = true }
        }
        return (status, contentLength, chunked)
    }

    private func readResponse() throws -> Response {
        let head = try readHead()
        if let length = head.contentLength {
            try fill { buffer.count >= length }
            defer { buffer.removeFirst(length) }
            return Response(status: head.status, body: Array(buffer[0..<length]))
        }
        guard head.chunked else { throw CLIError("relay bench: response without length") }
        var body: [UInt8] = []
        let lineEnd = Array("\r\n".utf8)
        while true {
            var end: Int?
            try fill {
                end = Self.find(lineEnd, in: buffer)
                return end != nil
            }
            guard let end, let size = Int(String(decoding: buffer[0..<end], as: UTF8.self), radix: 16) else {
                throw CLIError("relay bench: bad chunk size")
            }
            buffer.removeFirst(end + 2)
            try fill { buffer.count >= size + 2 }
            body += buffer[0..<size]
            buffer.removeFirst(size + 2)
            if size == 0 { return Response(status: head.status, body: body) }
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard haystack.count >= needle.count + start else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
