import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP/1.1 exchange on a fresh loopback connection (`Connection: close`), blocking.
///
/// The crash harness needs to tell "the server answered" from "the connection died": only a
/// complete answer counts as an acknowledgement (issue 14 item 4), so any reset, refused
/// connect or short read is ``CrashHTTPError/transport`` and the write is treated as
/// unacknowledged. A fresh connection per request keeps that rule exact: no answer can be
/// half-read from a keep-alive buffer when the server is killed.
enum CrashHTTP {
    struct Response {
        let status: Int
        /// Header fields in order, names lowercased.
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        func header(_ name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// `method path` to `127.0.0.1:port` with `headers` and `body`; every read is bounded by
    /// `timeout` (a server that stops answering is a transport failure, not a hang).
    static func exchange(
        port: Int, method: String, path: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeout: Duration = .seconds(60)
    ) throws(CrashHTTPError) -> Response {
        let descriptor = try openConnection(port: port, timeout: timeout)
        defer { _ = close(descriptor) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body {
            head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        }
        try sendAll(descriptor, Array((head + "\r\n").utf8) + (body ?? []))
        return try parse(try receiveAll(descriptor))
    }

    private static func openConnection(port: Int, timeout: Duration) throws(CrashHTTPError) -> Int32 {
        do {
            return try LoopbackSocket.connected(port: port) { descriptor in
                var value = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
            }
        } catch {
            throw .transport(error.message)
        }
    }

    private static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(CrashHTTPError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw .transport("write failed, errno \(errno)") }
            offset += written
        }
    }

    /// Everything until the server closes the connection.
    private static func receiveAll(_ descriptor: Int32) throws(CrashHTTPError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[0..<count]
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw .transport("read failed after \(bytes.count) bytes, errno \(errno)")
            }
        }
    }

    /// Status line, headers and a body framed by Content-Length or chunked encoding; anything
    /// shorter than its framing says is a transport failure (the server died mid-answer).
    static func parse(_ bytes: [UInt8]) throws(CrashHTTPError) -> Response {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = find(separator, in: bytes, from: 0) else {
            throw .transport("connection closed after \(bytes.count) bytes, before a complete response head")
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusField = lines.first?.split(separator: " ").dropFirst().first
        guard let statusField, let status = Int(statusField) else {
            throw .protocolViolation("bad status line \(lines.first ?? "")")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let rest = Array(bytes[(end + separator.count)...])
        if headers.contains(where: { $0.name == "transfer-encoding" && $0.value.lowercased().contains("chunked") }) {
            return Response(status: status, headers: headers, body: try dechunk(rest))
        }
        if let field = headers.first(where: { $0.name == "content-length" }), let length = Int(field.value) {
            guard rest.count >= length else {
                throw .transport("connection closed after \(rest.count) of \(length) body bytes")
            }
            return Response(status: status, headers: headers, body: Array(rest[0..<length]))
        }
        return Response(status: status, headers: headers, body: rest)
    }

    private static func dechunk(_ bytes: [UInt8]) throws(CrashHTTPError) -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        let lineEnd = Array("\r\n".utf8)
        while true {
            guard let end = find(lineEnd, in: bytes, from: index) else {
                throw .transport("connection closed inside a chunked body")
            }
            let sizeText = String(decoding: bytes[index..<end], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw .protocolViolation("bad chunk size")
            }
            index = end + 2
            if size == 0 { return body }
            guard bytes.count >= index + size + 2 else { throw .transport("connection closed inside a chunk") }
            body += bytes[index..<(index + size)]
            index += size + 2
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

/// Why an exchange gave no answer to count.
enum CrashHTTPError: Error, CustomStringConvertible {
    /// The connection failed or closed before a whole answer: the request is unacknowledged.
    case transport(String)
    /// The server answered something that is not HTTP/1.1.
    case protocolViolation(String)

    var description: String {
        switch self {
        case .transport(let reason): "no answer: \(reason)"
        case .protocolViolation(let reason): "not an HTTP answer: \(reason)"
        }
    }
}
