import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TandemChatApp

/// `tandem app`: the profile's chat in the browser, served by this process on the loopback
/// interface (issue 47). The keys stay here; the page gets a session cookie for the link printed.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Chat in the browser: serve the profile's chat on 127.0.0.1 and print the link to open.",
        discussion: """
            Prints one line `open http://127.0.0.1:PORT/open?token=…` once the socket is bound. The link \
            works once: opening it gives that browser a session cookie, and every other request \
            without it, with a foreign Host, or a change whose Origin is not the app's, is refused \
            (403). The keys never reach the page. One tandem app per profile at a time; Ctrl-C stops it.
            """)

    @OptionGroup var chat: ChatOptions
    @OptionGroup var stream: StreamTransportOptions
    @Option(name: .long, help: "Port to bind on 127.0.0.1 (0: any free port).") var port = 0
    @Flag(name: .long, help: "Open the link in the default browser (xdg-open, or open on macOS).") var open = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0–65535") }
    }

    func run() async throws {
        // Logs on stderr, quiet unless LOG_LEVEL says otherwise: stdout carries the link.
        let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let lock: ChatAppLock
        let directory = try chat.profile.value.directory
        do { lock = try ChatAppLock(profileDirectory: directory) } catch {
            throw CLIError(error.description)
        }
        let access = ChatAppAccess()
        let openInBrowser = open
        try await stream.withTransport { transport in
            let messenger = try chat.messenger(streamTransport: transport)
            let app = buildChatApp(messenger: messenger, access: access, port: port) { bound in
                lock.record(port: bound)
                guard let link = access.openURL else { return }
                CommandIO.write("open \(link)\n")
                if openInBrowser { Self.launchBrowser(link) }
            }
            // Ctrl-C or SIGTERM shuts down gracefully: open pages' streams end, requests in
            // flight finish. A connection that keeps the server waiting (a client that holds
            // one open) gets 5 s; then the app is cancelled, which closes it.
            var configuration = ServiceGroupConfiguration(services: [app], logger: Logger(label: "tandem.app"))
            configuration.gracefulShutdownSignals = [.sigterm, .sigint]
            configuration.maximumGracefulShutdownDuration = Self.shutdownGrace
            do { try await ServiceGroup(configuration: configuration).run() } catch {
                throw ListenFailure.describe(error, host: "127.0.0.1", port: port) ?? error
            }
        }
    }

    /// How long a graceful shutdown may wait for the server's connections.
    static let shutdownGrace = Duration.seconds(5)

    /// Hands `link` to the desktop's opener; a missing one is said, not fatal.
    static func launchBrowser(_ link: String) {
        let opener = Process()
        #if os(macOS)
            opener.executableURL = URL(fileURLWithPath: "/usr/bin/open")
        #else
            opener.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-open")
        #endif
        opener.arguments = [link]
        do { try opener.run() } catch { CommandIO.writeError("cannot open a browser (\(error)); open the link above") }
    }
}
