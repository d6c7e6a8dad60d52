import Foundation
import TestSupport
import Testing

/// Issue 48 item 3: `tandem chat listen --notify` shows a desktop notification for a new message
/// from an unmuted contact, through the freedesktop notification service on D-Bus — here a private
/// session bus (`dbus-daemon`) and a recording service (python3-dbus), which `notify-send`
/// (libnotify-bin) reaches as it would a desktop's — and none for a muted contact; the text only
/// with `--notify-preview`.
@Suite(.serialized) struct ChatNotifyCLITests {
    static let tools = ["/usr/bin/dbus-daemon", "/usr/bin/python3", "/usr/bin/notify-send"]
    static let available =
        tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbus")
        && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gi")

    /// Owns org.freedesktop.Notifications on the bus and prints each Notify call as a JSON line.
    static let service = """
        import json, sys
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.SessionBus()
        name = dbus.service.BusName("org.freedesktop.Notifications", bus)
        class Service(dbus.service.Object):
            @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
            def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
                print(json.dumps({"app": str(app), "summary": str(summary), "body": str(body)}), flush=True)
                return 1
            @dbus.service.method("org.freedesktop.Notifications", out_signature="as")
            def GetCapabilities(self):
                return ["body"]
            @dbus.service.method("org.freedesktop.Notifications", out_signature="ssss")
            def GetServerInformation(self):
                return ("recorder", "tandem tests", "1", "1.2")
            @dbus.service.method("org.freedesktop.Notifications", in_signature="u")
            def CloseNotification(self, id):
                pass
        Service(bus, "/org/freedesktop/Notifications")
        print("ready", flush=True)
        GLib.MainLoop().run()
        """

    /// Said, not passed over: a warning on a developer machine without the tools, a failure where
    /// CI sets `TANDEM_REQUIRE_DBUS=1` (`.ci/run` installs them).
    @Test func theNotificationServiceCanRun() {
        guard !Self.available else { return }
        Issue.record(
            "no dbus-daemon, python3-dbus, python3-gi or notify-send: the notification test is left out",
            severity: ProcessInfo.processInfo.environment["TANDEM_REQUIRE_DBUS"] == "1" ? .error : .warning)
    }

    static func run(_ arguments: [String]) async throws {
        let output = try await TandemProcess.run(arguments)
        try #require(output.status == 0, "tandem \(arguments.joined(separator: " ")): \(output.stderrText)")
    }

    @Test(
        "a new message from an unmuted contact is a desktop notification without its text; a muted one is none",
        .enabled(if: available, "needs dbus-daemon, python3-dbus, python3-gi and notify-send (libnotify-bin)"))
    func notifiesThroughTheSessionBus() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let bus = try await ChildProcess.launch(
            URL(fileURLWithPath: "/usr/bin/dbus-daemon"), ["--session", "--nofork", "--print-address"])
        defer { Task { await bus.kill() } }
        let address = try #require(try await bus.firstLine(within: 30))
        try Self.service.write(toFile: dir.path("service.py"), atomically: true, encoding: .utf8)
        let recorder = try await ChildProcess.launch(
            URL(fileURLWithPath: "/usr/bin/python3"), [dir.path("service.py")],
            environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        defer { Task { await recorder.kill() } }
        #expect(try await recorder.firstLine(within: 30) == "ready")

        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let url = ["--server", server.baseURL]
        let (anna, bob, carol) = (dir.path("anna"), dir.path("bob"), dir.path("carol"))
        var addresses: [String] = []
        for profile in [anna, bob, carol] {
            try await Self.run(["keys", "new", "--profile", profile])
            let shown = try await TandemProcess.run(["keys", "show", "--json", "--profile", profile])
            let object = try #require(try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any])
            addresses.append(try #require(object["address"] as? String))
        }
        for (index, name) in [(1, "Bob"), (2, "Carol")] {
            try await Self.run(["chat", "handshake", "--to", addresses[index], "--profile", anna] + url)
            try await Self.run(["chat", "sync", "--profile", index == 1 ? bob : carol] + url)
            try await Self.run(["contacts", "rename", addresses[index], name, "--profile", anna])
        }
        try await Self.run(["contacts", "mute", "Carol", "on", "--profile", anna])

        for (preview, text) in [(false, "bob's secret words"), (true, "bob's words, previewed")] {
            let listen = try await ChildProcess.launch(
                TandemProcess.binary,
                ["chat", "listen", "--json", preview ? "--notify-preview" : "--notify", "--profile", anna] + url,
                environment: ["DBUS_SESSION_BUS_ADDRESS": address])
            // Carol's first message shows the listener is on; it is muted, so never notifies.
            let warmUp = "carol warms up \(preview)"
            try await Self.run(["chat", "send", "--to", addresses[0], warmUp, "--profile", carol] + url)
            #expect(await listen.waitForOutput(containing: warmUp, within: 30))
            try await Self.run(
                ["chat", "send", "--to", addresses[0], "carol again \(preview)", "--profile", carol] + url)
            try await Self.run(["chat", "send", "--to", addresses[0], text, "--profile", bob] + url)
            #expect(await listen.waitForOutput(containing: "carol again \(preview)", within: 30))
            #expect(await listen.waitForOutput(containing: text, within: 30))
            let body = preview ? text : "new message"
            #expect(await recorder.waitForOutput(containing: #""body": "\#(body)""#, within: 30), "\(preview)")
            await listen.kill()
        }
        let recorded = String(decoding: recorder.standardOutput, as: UTF8.self).split(separator: "\n").dropFirst()
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
        #expect(!recorded.contains { $0["summary"] == "Carol" }, "a muted contact never notifies: \(recorded)")
        let fromBob = recorded.filter { $0["summary"] == "Bob" && $0["body"] != "wants to chat" }
        #expect(fromBob.map { $0["body"] } == ["new message", "bob's words, previewed"])
        #expect(recorded.allSatisfy { $0["app"] == "Tandem" && $0["body"] != "bob's secret words" })
    }
}
