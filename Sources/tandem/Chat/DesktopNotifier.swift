import ArgumentParser
import Foundation
import TandemMessaging

/// Shows the library's ``MessageNotice``s (issue 48 item 3): as a desktop notification through
/// the freedesktop notification service (`notify-send`, Debian's libnotify-bin, over the session
/// D-Bus) when a session bus is there and the service answers, otherwise as the terminal bell.
/// Notices are shown one at a time, in the order given, off the caller's task: a slow or stuck
/// service (each call gets `timeout`) never holds up the messages.
final class DesktopNotifier: Sendable {
    private let queue: AsyncStream<MessageNotice>.Continuation
    private let worker: Task<Void, Never>

    /// `bell` rings the terminal when no desktop notification could be shown.
    init(bell: @escaping @Sendable () -> Void, timeout: TimeInterval = 5) {
        let (stream, continuation) = AsyncStream.makeStream(of: MessageNotice.self)
        queue = continuation
        let program = Self.notifySend()
        worker = Task.detached {
            for await notice in stream {
                if let program, await Self.show(notice, with: program, timeout: timeout) { continue }
                bell()
            }
        }
    }

    deinit {
        queue.finish()
        worker.cancel()
    }

    func notify(_ notice: MessageNotice) { queue.yield(notice) }

    /// The terminal bell of a line-mode command: on the controlling terminal, whatever standard
    /// output and error are (a pipe of JSON lines stays clean); nothing without one.
    static func ringTerminal() {
        guard let tty = FileHandle(forWritingAtPath: "/dev/tty") else { return }
        tty.write(Data([0x07]))
        try? tty.close()
    }

    /// `notify-send` on the PATH, when a session bus is there to reach the service through.
    private static func notifySend() -> URL? {
        let environment = ProcessInfo.processInfo.environment
        let runtimeBus = environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
        guard
            environment["DBUS_SESSION_BUS_ADDRESS"].map({ !$0.isEmpty }) ?? false
                || runtimeBus.map(FileManager.default.fileExists(atPath:)) ?? false
        else { return nil }
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("notify-send")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Whether the service took the notice (notify-send exited 0 within `timeout`).
    private static func show(_ notice: MessageNotice, with program: URL, timeout: TimeInterval) async -> Bool {
        let process = Process()
        process.executableURL = program
        process.arguments = ["--app-name=Tandem", "--category=im.received", "--", notice.title, notice.body]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return await withCheckedContinuation { continuation in
            process.terminationHandler = { ended in
                continuation.resume(returning: ended.terminationReason == .exit && ended.terminationStatus == 0)
            }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(returning: false)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if process.isRunning { process.terminate() }
            }
        }
    }
}

/// `--notify` and `--notify-preview` of `tandem chat listen`.
struct NotifyOptions: ParsableArguments {
    @Flag(
        name: .long,
        help: "Notify on each new message from an unmuted contact: a desktop notification (notify-send), else the bell."
    )
    var notify = false
    @Flag(name: .long, help: "Show the message's text in the notification (off: only who wrote); implies --notify.")
    var notifyPreview = false

    var enabled: Bool { notify || notifyPreview }
}
