public import ArgumentParser
import Foundation
public import KasiaProtocol
import KaspaCrypto
import RoutingStore
import TandemBasics
import TandemMessaging
import TandemProfile

extension RoutingPreference: ExpressibleByArgument {}
extension RootPreference: ExpressibleByArgument {}

extension KasiaCommand {
    /// `tandem kasia routing …`: the per-contact routing state kept in the profile.
    struct Routing: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "routing",
            abstract: "Deterministic-alias routing state: legacy migration, rollout stage, watched aliases.",
            subcommands: [Migrate.self, Show.self, Set.self, Root.self, Watch.self, Stage.self, Purge.self]
        )

        /// The profile's wallet key and routing store.
        static func open(_ options: ProfileOptions) throws -> (PrivateKey, RoutingStore) {
            let profile = try options.value
            return (try profile.walletKey(), try profile.openRouting())
        }

        /// Applies `edit` to the routing state of the contact at `address` (a new state when there
        /// is none), saves it and prints the contact's row: JSON, or `describe`'s line.
        static func change(
            _ address: String, profile: ProfileOptions, json: Bool,
            _ edit: (inout ConversationRoutingState, RoutingPolicy) throws -> Void,
            describe: (Show.Row) -> String
        ) throws {
            let peer = try parseAddress(address, option: "ADDRESS")
            let (key, store) = try open(profile)
            let policy = try store.policy()
            var state: ConversationRoutingState
            if let saved = try store.fetchOne(peer) {
                state = saved
            } else {
                do { state = try ConversationRoutingState(contact: peer, privateKey: key, now: now(profile)) } catch {
                    throw CLIError("ADDRESS \(address): \(error.description)")
                }
            }
            try edit(&state, policy)
            try store.save([state])
            let row = Show.Row(state, policy: policy)
            if json {
                try CommandIO.printJSON(row)
            } else {
                CommandIO.write(describe(row) + "\n")
            }
        }

        /// Now, by the profile's clock (exactly `--now` when given).
        static func now(_ options: ProfileOptions) -> UnixMillis { options.instantNow() }

        struct Migrate: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "migrate",
                abstract: "One-time migration from a KaChat legacy snapshot (JSON keyed like its UserDefaults).")
            @OptionGroup var profile: ProfileOptions
            @Option(name: .long, help: ArgumentHelp("The legacy snapshot file.", valueName: "file")) var from: String
            @Flag(name: .long, help: "Print the report as JSON.") var json = false

            func run() throws {
                let (key, store) = try KasiaCommand.Routing.open(profile)
                guard let data = FileManager.default.contents(atPath: from) else {
                    throw CLIError("--from \(from): cannot read the file")
                }
                let report: LegacyMigrationReport
                do {
                    let snapshot = try LegacySnapshot(json: data, wallet: KaspaAddress(publicKey: key.xOnlyPublicKey))
                    report = try store.migrateLegacy(snapshot, privateKey: key, now: KasiaCommand.Routing.now(profile))
                } catch let error as RoutingStoreError {
                    throw CLIError("--from \(from): \(error.description)")
                }
                if json {
                    try CommandIO.printJSON(report)
                    return
                }
                CommandIO.write(
                    report.performed
                        ? "migrated \(report.contacts) contacts (\(report.hybrid) hybrid, \(report.deterministicOnly) deterministic-only), skipped \(report.skipped.count)\n"
                        : "already migrated; nothing changed\n")
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show",
                abstract: "List every conversation's routing state and composer state.")
            @OptionGroup var profile: ProfileOptions
            @Flag(name: .long, help: "Print a JSON array.") var json = false

            struct Row: Encodable {
                let contact: String
                let mode: AliasMode
                let myAlias: String
                let theirAlias: String
                let legacyIncoming: [String]
                let legacyOutgoing: [String]
                let peerSupportsDeterministic: Bool
                let preference: RoutingPreference
                let sendAlias: String
                let composer: String
                /// The root this conversation's payloads are written under, and why (issue 43 item 2).
                let root: KasiaRoot
                let rootReason: RootReason
                let rootPreference: RootPreference
                /// The root of the peer's last payload to us and its block time; null without one.
                let rootEvidence: OrNull<Evidence<KasiaRoot>>
                /// The payment form this contact reads (`pay` or `payment`) and the app evidence behind it.
                let paymentForm: String
                let peerApp: OrNull<Evidence<PeerApp>>

                /// What a payload showed and when: `seenAt` (ISO-8601 UTC, issue 51 item 6), with
                /// `at` (milliseconds, the name of the last release) kept for one more. The
                /// member's name is the evidence's kind: `root` or `app`.
                struct Evidence<Value: Encodable>: Encodable {
                    let name: String
                    let value: Value
                    let at: UnixMillis

                    func encode(to encoder: any Encoder) throws {
                        var container = encoder.container(keyedBy: JSONKey.self)
                        try container.encode(value, forKey: JSONKey(name))
                        try container.encode(at.iso8601, forKey: JSONKey("seenAt"))
                        try container.encode(at, forKey: JSONKey("at"))
                    }
                }

                init(_ s: ConversationRoutingState, policy: RoutingPolicy) {
                    contact = s.contactAddress.description
                    mode = s.mode
                    myAlias = s.deterministic.myAlias.rawValue
                    theirAlias = s.deterministic.theirAlias.rawValue
                    legacyIncoming = s.legacyIncomingAliases.map(\.rawValue).sorted()
                    legacyOutgoing = s.legacyOutgoingAliases.map(\.rawValue).sorted()
                    peerSupportsDeterministic = s.peerSupportsDeterministic
                    preference = s.preference
                    sendAlias = s.sendAlias(policy: policy).rawValue
                    composer = Show.describe(s.composerState(policy: policy))
                    (root, rootReason) = s.rootDecision
                    rootPreference = s.rootPreference
                    rootEvidence = OrNull(s.peerRoot.map { Evidence(name: "root", value: $0.root, at: $0.at) })
                    paymentForm = s.paymentForm.name
                    peerApp = OrNull(s.peerApp.map { Evidence(name: "app", value: $0.app, at: $0.at) })
                }
            }

            func run() throws {
                let (_, store) = try KasiaCommand.Routing.open(profile)
                let policy = try store.policy()
                let rows = try store.fetchTable().states.values.sorted {
                    $0.contactAddress.description < $1.contactAddress.description
                }.map { Row($0, policy: policy) }
                if json {
                    try CommandIO.printJSON(rows)
                    return
                }
                for row in rows {
                    CommandIO.write(
                        "\(row.contact) \(row.mode.rawValue) send=\(row.sendAlias) \(row.composer) root=\(row.root.rawValue) (\(row.rootReason.rawValue))\n"
                    )
                }
            }

            static func describe(_ state: ComposerState) -> String {
                switch state {
                case .ready: "ready"
                case .needsHandshake: "needs-handshake"
                case .warning(let warning, _): "warning:\(warning.rawValue)"
                }
            }
        }

        /// `tandem kasia routing set ADDRESS deterministic|legacy|auto` (issue 24 item 5).
        struct Set: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set",
                abstract: "Set a contact's routing: deterministic (the peer derives aliases), legacy (pin), or auto.",
                discussion: """
                    deterministic: send with the deterministic alias now (the capability toggle). legacy: \
                    keep using legacy aliases whatever the peer shows (only in stage a, which still \
                    creates them). auto: follow the capability evidence again.
                    """)
            @OptionGroup var profile: ProfileOptions
            @Argument(help: "The contact's address.") var address: String
            @Argument(help: "deterministic, legacy or auto.") var preference: RoutingPreference
            @Flag(name: .long, help: "Print the contact's routing state as JSON.") var json = false

            func run() throws {
                try KasiaCommand.Routing.change(address, profile: profile, json: json) { state, policy in
                    guard state.setPreference(preference, policy: policy, newAlias: { KasiaProtocol.Alias.random() })
                    else {
                        throw CLIError(
                            "legacy: the rollout stage (\(policy.mode.rawValue)) no longer creates legacy aliases; only stage a can pin a contact to legacy"
                        )
                    }
                } describe: { row in
                    "\(row.contact) \(row.preference.rawValue): \(row.mode.rawValue) send=\(row.sendAlias) \(row.composer)"
                }
            }
        }

        /// `tandem kasia routing root ADDRESS kchat|ciph_msg|auto` (issue 43 item 2).
        struct Root: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "root",
                abstract: "Pin the root a contact's payloads are written under: kchat, ciph_msg, or auto.",
                discussion: """
                    auto (the default) writes the root of the contact's last payload to us, and ciph_msg: \
                    without one, which KaChat and Kasia web both read. kchat: is read by KaChat only. \
                    Handshakes, their responses, messages, payments and self-stashes for the contact all \
                    follow it.
                    """)
            @OptionGroup var profile: ProfileOptions
            @Argument(help: "The contact's address.") var address: String
            @Argument(help: "kchat, ciph_msg or auto.") var root: RootPreference
            @Flag(name: .long, help: "Print the contact's routing state as JSON.") var json = false

            func run() throws {
                try KasiaCommand.Routing.change(address, profile: profile, json: json) { state, _ in
                    state.rootPreference = root
                } describe: { row in
                    "\(row.contact) root=\(row.root.rawValue) (\(row.rootReason.rawValue))"
                }
            }
        }

        struct Watch: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "watch",
                abstract: "Print the watched incoming alias set (for push registration and fetching).")
            @OptionGroup var profile: ProfileOptions
            @Flag(name: .long, help: "Print a JSON array.") var json = false

            func run() throws {
                let (_, store) = try KasiaCommand.Routing.open(profile)
                let aliases = try store.fetchTable().watchedIncomingAliases(
                    policy: store.policy(), now: KasiaCommand.Routing.now(profile)
                )
                .map(\.rawValue).sorted()
                if json {
                    try CommandIO.printJSON(aliases)
                } else {
                    CommandIO.write(aliases.map { $0 + "\n" }.joined())
                }
            }
        }

        struct Stage: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "stage",
                abstract:
                    "Show or set the rollout stage (a: hybrid, b: deterministic_write_only, c: b + legacy retention, d: deterministic_only)."
            )
            @OptionGroup var profile: ProfileOptions
            @Argument(help: "a, b, c or d; omit to show the current policy.") var stage: String?
            @OptionGroup var retention: RetentionOption
            @Flag(name: .long, help: "Print the policy as JSON.") var json = false

            func run() throws {
                let (_, store) = try KasiaCommand.Routing.open(profile)
                if let stage {
                    guard let parsed = RoutingPolicy.Stage(rawValue: stage.lowercased()) else {
                        throw CLIError("stage \(stage): expected a, b, c or d")
                    }
                    try store.setPolicy(RoutingPolicy(stage: parsed, retentionMilliseconds: retention.milliseconds))
                }
                let policy = try store.policy()
                if json {
                    try CommandIO.printJSON(policy)
                } else {
                    CommandIO.write("derived_aliases_mode: \(policy.mode.rawValue)\n")
                }
            }
        }

        struct Purge: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "purge",
                abstract: "Phase 5 cleanup: drop legacy aliases without traffic in the retention window.")
            @OptionGroup var profile: ProfileOptions
            @OptionGroup var retention: RetentionOption

            func run() throws {
                let (_, store) = try KasiaCommand.Routing.open(profile)
                let changed = try store.purgeStaleLegacyAliases(
                    now: KasiaCommand.Routing.now(profile), retentionMs: retention.milliseconds)
                CommandIO.write("purged legacy aliases of \(changed.count) contacts\n")
            }
        }
    }
}

/// `--retention-days N`: how long legacy aliases stay read without traffic (seed 000 stage C and
/// Phase 5). Bounded so the window in milliseconds can never overflow.
struct RetentionOption: ParsableArguments {
    static let maximumDays: UInt64 = 36_500

    @Option(name: .long, help: "Legacy retention window in days (0…36500).") var retentionDays: UInt64 = 30

    func validate() throws {
        guard retentionDays <= Self.maximumDays else {
            throw CLIError("--retention-days \(retentionDays): at most \(Self.maximumDays) days (100 years)")
        }
    }

    var milliseconds: UInt64 { retentionDays * 86_400_000 }
}
