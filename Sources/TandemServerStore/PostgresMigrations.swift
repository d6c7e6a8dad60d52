import Logging
import PostgresNIO
import TandemBasics

/// Versioned schema migrations for PostgreSQL, recorded in `tandem_migrations`; shipped
/// migrations are never edited. An advisory lock keeps concurrent instances from racing.
final class PostgresMigrations: Sendable {
    private let done = Locked(false)

    static let steps: [(id: String, sql: [String])] = [
        (
            "v1-auth-and-profiles",
            [
                """
                CREATE TABLE auth_user (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL CONSTRAINT auth_user_email_key UNIQUE,
                    email_verified BOOLEAN NOT NULL DEFAULT FALSE, image TEXT, created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL, username TEXT CONSTRAINT auth_user_username_key UNIQUE, display_username TEXT)
                """,
                """
                CREATE TABLE account (
                    id TEXT PRIMARY KEY, account_id TEXT NOT NULL, provider_id TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE, password TEXT,
                    created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, UNIQUE (provider_id, account_id))
                """,
                "CREATE INDEX account_user_id ON account(user_id)",
                """
                CREATE TABLE session (
                    id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE,
                    user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE, expires_at BIGINT NOT NULL,
                    created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, ip_address TEXT, user_agent TEXT,
                    remember_me BOOLEAN NOT NULL DEFAULT TRUE)
                """,
                "CREATE INDEX session_user_id ON session(user_id)",
                """
                CREATE TABLE users (
                    user_id TEXT PRIMARY KEY REFERENCES auth_user(id) ON DELETE CASCADE, display_name TEXT NOT NULL,
                    kaspa_address TEXT, public_keys TEXT NOT NULL DEFAULT '[]', updated_at BIGINT NOT NULL)
                """,
            ]
        ),
        // Issue 11: relayed Kasia transactions. `kasia_clock` is the one-row counter whose
        // row lock serialises block-time assignment across instances until commit.
        (
            "v2-kasia-relay",
            [
                """
                CREATE TABLE kasia_tx (
                    tx_id TEXT PRIMARY KEY, block_time BIGINT NOT NULL UNIQUE, kind TEXT NOT NULL, sender TEXT NOT NULL,
                    receiver TEXT, amount BIGINT NOT NULL DEFAULT 0, tag TEXT NOT NULL DEFAULT '', body BYTEA NOT NULL,
                    payload BYTEA NOT NULL, nonce TEXT NOT NULL, signature TEXT NOT NULL)
                """,
                "CREATE INDEX kasia_tx_by_sender ON kasia_tx(kind, sender, tag, block_time)",
                "CREATE INDEX kasia_tx_by_receiver ON kasia_tx(kind, receiver, block_time) WHERE receiver IS NOT NULL",
                "CREATE TABLE kasia_clock (id INT PRIMARY KEY, last BIGINT NOT NULL)",
                "INSERT INTO kasia_clock (id, last) VALUES (1, 0)",
            ]
        ),
        (
            "v3-sync",
            [
                "CREATE TABLE sync_clock (id INT PRIMARY KEY, last BIGINT NOT NULL)",
                "INSERT INTO sync_clock (id, last) VALUES (1, 0)",
                """
                CREATE TABLE device_key (
                    public_key TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL, revoked_at BIGINT)
                """,
                "CREATE INDEX device_key_user ON device_key(user_id)",
                """
                CREATE TABLE redo_node (
                    id TEXT PRIMARY KEY, task_id TEXT NOT NULL, pos BIGINT NOT NULL UNIQUE, json BYTEA NOT NULL,
                    author_key TEXT NOT NULL, pushed_by TEXT NOT NULL, received_at BIGINT NOT NULL)
                """,
                "CREATE INDEX redo_node_task ON redo_node(task_id, pos)",
                """
                CREATE TABLE redo_task_access (
                    task_id TEXT NOT NULL, user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                    granted_at BIGINT NOT NULL, PRIMARY KEY (task_id, user_id))
                """,
                "CREATE INDEX redo_task_access_user ON redo_task_access(user_id)",
                """
                CREATE TABLE redo_feed (
                    seq BIGINT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                    node_id TEXT NOT NULL)
                """,
                "CREATE INDEX redo_feed_user ON redo_feed(user_id, seq)",
                """
                CREATE TABLE contact_record (
                    user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE, record_id TEXT NOT NULL,
                    version BIGINT NOT NULL, box BYTEA NOT NULL, seq BIGINT NOT NULL UNIQUE,
                    PRIMARY KEY (user_id, record_id))
                """,
                "CREATE INDEX contact_record_feed ON contact_record(user_id, seq)",
            ]
        ),
        // Issue 25: chain rows carry the including block's time, neither unique nor in commit
        // order; the commit-order position moves to `seq` (a relayed row keeps seq =
        // block_time, and kasia_clock now counts seq). `relayed_time` marks relayed rows, which a
        // reorg returns to unaccepted instead of removing. kasia_chain is the ingester's cursor.
        (
            "v4-kasia-chain",
            [
                "ALTER TABLE kasia_tx ADD COLUMN seq BIGINT",
                "UPDATE kasia_tx SET seq = block_time",
                "ALTER TABLE kasia_tx ALTER COLUMN seq SET NOT NULL",
                "ALTER TABLE kasia_tx DROP CONSTRAINT IF EXISTS kasia_tx_block_time_key",
                "CREATE UNIQUE INDEX kasia_tx_seq ON kasia_tx(seq)",
                """
                ALTER TABLE kasia_tx ADD COLUMN accepting_block TEXT, ADD COLUMN accepting_daa_score BIGINT,
                    ADD COLUMN relayed_time BIGINT
                """,
                "UPDATE kasia_tx SET relayed_time = block_time",
                "DROP INDEX kasia_tx_by_sender",
                "DROP INDEX kasia_tx_by_receiver",
                "CREATE INDEX kasia_tx_by_sender ON kasia_tx(kind, sender, tag, block_time, tx_id)",
                """
                CREATE INDEX kasia_tx_by_receiver ON kasia_tx(kind, receiver, block_time, tx_id)
                    WHERE receiver IS NOT NULL
                """,
                """
                CREATE INDEX kasia_tx_by_accepting_block ON kasia_tx(accepting_block)
                    WHERE accepting_block IS NOT NULL
                """,
                """
                CREATE TABLE kasia_chain (
                    id INT PRIMARY KEY CHECK (id = 1), block TEXT NOT NULL, daa_score BIGINT NOT NULL,
                    block_time BIGINT NOT NULL)
                """,
            ]
        ),
        // The network the cursor belongs to: a server restarted on another network must not go
        // on from it.
        ("v5-kasia-chain-network", ["ALTER TABLE kasia_chain ADD COLUMN network TEXT NOT NULL DEFAULT ''"]),
        // Issue 27: saved task-filter presets, sealed like contact records, in a table of the
        // same shape (one collection each).
        (
            "v6-task-presets",
            [
                """
                CREATE TABLE task_preset_record (
                    user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE, record_id TEXT NOT NULL,
                    version BIGINT NOT NULL, box BYTEA NOT NULL, seq BIGINT NOT NULL UNIQUE,
                    PRIMARY KEY (user_id, record_id))
                """,
                "CREATE INDEX task_preset_record_feed ON task_preset_record(user_id, seq)",
            ]
        ),
        // Issue 50 item 6: what each account holds per synced collection, kept in every sync
        // write's transaction; counted once here from what is stored.
        (
            "v7-sync-usage",
            [
                """
                CREATE TABLE sync_usage (
                    user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE, collection TEXT NOT NULL,
                    row_count BIGINT NOT NULL, byte_count BIGINT NOT NULL, PRIMARY KEY (user_id, collection))
                """,
                """
                INSERT INTO sync_usage (user_id, collection, row_count, byte_count)
                SELECT pushed_by, 'nodes', COUNT(*), SUM(octet_length(json)) FROM redo_node
                WHERE pushed_by IN (SELECT id FROM auth_user) GROUP BY pushed_by
                """,
                """
                INSERT INTO sync_usage (user_id, collection, row_count, byte_count)
                SELECT user_id, 'contacts', COUNT(*), SUM(octet_length(box)) FROM contact_record GROUP BY user_id
                """,
                """
                INSERT INTO sync_usage (user_id, collection, row_count, byte_count)
                SELECT user_id, 'taskPresets', COUNT(*), SUM(octet_length(box)) FROM task_preset_record
                GROUP BY user_id
                """,
            ]
        ),
        // Issue 50 item 6: share invitations and who takes whose shares without asking;
        // accounts that already read a task together trust each other.
        (
            "v8-share-invitations",
            [
                """
                CREATE TABLE task_invitation (
                    recipient_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE, task_id TEXT NOT NULL,
                    sharer_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE, created_at BIGINT NOT NULL,
                    PRIMARY KEY (recipient_id, task_id))
                """,
                "CREATE INDEX task_invitation_sharer ON task_invitation(sharer_id)",
                """
                CREATE TABLE share_trust (
                    user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                    trusted_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE, created_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, trusted_id))
                """,
                "CREATE INDEX share_trust_trusted ON share_trust(trusted_id)",
                """
                INSERT INTO share_trust (user_id, trusted_id, created_at)
                SELECT a.user_id, b.user_id, max(greatest(a.granted_at, b.granted_at))
                FROM redo_task_access a JOIN redo_task_access b ON a.task_id = b.task_id AND a.user_id <> b.user_id
                GROUP BY a.user_id, b.user_id
                """,
            ]
        ),
        // Issue 48 item 1: a person's chat history, sealed like contact records, in a table of
        // the same shape (one collection each).
        (
            "v9-chat-history",
            [
                """
                CREATE TABLE chat_history_record (
                    user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE, record_id TEXT NOT NULL,
                    version BIGINT NOT NULL, box BYTEA NOT NULL, seq BIGINT NOT NULL UNIQUE,
                    PRIMARY KEY (user_id, record_id))
                """,
                "CREATE INDEX chat_history_record_feed ON chat_history_record(user_id, seq)",
            ]
        ),
    ]

    func runOnce(client: PostgresClient, logger: Logger) async throws {
        if done.withLock({ $0 }) { return }
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7037818)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS tandem_migrations (id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                logger: logger)
            var applied: Set<String> = []
            let rows = try await connection.query("SELECT id FROM tandem_migrations", logger: logger)
            for try await id in rows.decode(String.self) { applied.insert(id) }
            for step in Self.steps where !applied.contains(step.id) {
                for statement in step.sql {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO tandem_migrations (id) VALUES (\(step.id))", logger: logger)
            }
        }
        done.withLock { $0 = true }
    }
}
