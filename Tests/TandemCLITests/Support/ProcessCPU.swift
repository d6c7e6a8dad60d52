import Foundation

/// CPU time and children of a process, read from Linux's `/proc` (proc(5)): the resource
/// checks of issue 16 measure what a child really used, not how long a test took.
enum ProcessCPU {
    /// `utime + stime` of `pid` in seconds, nil when the process is gone or `/proc` is absent.
    static func seconds(_ pid: pid_t) -> Double? {
        guard let fields = statFields(pid), fields.count > 12, let user = Double(fields[11]),
            let system = Double(fields[12])
        else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Whether `pid` still exists and has not been reaped or become a zombie.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let state = statFields(pid)?.first else { return false }
        return state != "Z" && state != "X"
    }

    /// The processes whose parent is `pid`.
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { statFields($0)?.dropFirst().first == String(pid) }
    }

    /// The fields of `/proc/PID/stat` after the command name, from `state` (field 3) on. The
    /// name is in parentheses and may itself hold spaces or parentheses, so the split starts
    /// after the last `)`.
    private static func statFields(_ pid: pid_t) -> [String]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ").map(String.init)
    }
}
