import Foundation

/// Opens a page of sealed records on every core (issue 12 "Figures"), in page order. The page is
/// cut into several parts per core, so a core busy merging the previous page takes fewer.
enum ParallelOpen {
    static func map<Entry: Sendable, Opened: Sendable>(
        _ entries: [Entry], _ open: @escaping @Sendable (Entry) -> Opened?
    ) async -> [Opened?] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let parts = max(1, min(cores * 4, entries.count / 32))
        guard parts > 1 else { return entries.map(open) }
        let chunk = (entries.count + parts - 1) / parts
        return await withTaskGroup(of: (Int, [Opened?]).self) { group in
            for start in stride(from: 0, to: entries.count, by: chunk) {
                let part = Array(entries[start..<min(start + chunk, entries.count)])
                group.addTask { (start, part.map(open)) }
            }
            var opened = [Opened?](repeating: nil, count: entries.count)
            for await (start, part) in group {
                for (offset, item) in part.enumerated() { opened[start + offset] = item }
            }
            return opened
        }
    }
}
