import GRDB

extension SQLiteServerStore {
    /// Shipped migrations are never edited; new ones are appended.
    /// Times are milliseconds since 1970 (INTEGER), the same in both backends.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-auth-and-profiles") { db in
            try db.execute(
                sql: """
                    CREATE TABLE auth_user (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        email TEXT NOT NULL UNIQUE,
                        email_verified BOOLEAN NOT NULL DEFAULT 0,
                        image TEXT,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL,
                        username TEXT UNIQUE,
                        display_username TEXT
                    );
                    CREATE TABLE account (
                        id TEXT PRIMARY KEY NOT NULL,
                        account_id TEXT NOT NULL,
                        provider_id TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        password TEXT,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL,
                        UNIQUE (provider_id, account_id)
                    );
                    CREATE INDEX account_user_id ON account(user_id);
                    CREATE TABLE session (
                        id TEXT PRIMARY KEY NOT NULL,
                        token_hash TEXT NOT NULL UNIQUE,
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        expires_at INTEGER NOT NULL,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL,
                        ip_address TEXT,
                        user_agent TEXT,
                        remember_me BOOLEAN NOT NULL DEFAULT 1
                    );
                    CREATE INDEX session_user_id ON session(user_id);
                    CREATE TABLE users (
                        user_id TEXT PRIMARY KEY NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        display_name TEXT NOT NULL,
                        kaspa_address TEXT,
                        public_keys TEXT NOT NULL DEFAULT '[]',
                        updated_at INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2-kasia-relay") { db in
            // block_time is unique: assigned in commit order by the one writer (issue 11 item 2).
            // (kind, sender, tag, block_time) makes every by-sender/by-owner page an index seek;
            // the partial receiver index serves by-receiver pages.
            try db.execute(
                sql: """
                    CREATE TABLE kasia_tx (
                        tx_id TEXT PRIMARY KEY NOT NULL,
                        block_time INTEGER NOT NULL UNIQUE,
                        kind TEXT NOT NULL,
                        sender TEXT NOT NULL,
                        receiver TEXT,
                        amount INTEGER NOT NULL DEFAULT 0,
                        tag TEXT NOT NULL DEFAULT '',
                        body BLOB NOT NULL,
                        payload BLOB NOT NULL,
                        nonce TEXT NOT NULL,
                        signature TEXT NOT NULL
                    );
                    CREATE INDEX kasia_tx_by_sender ON kasia_tx(kind, sender, tag, block_time);
                    CREATE INDEX kasia_tx_by_receiver ON kasia_tx(kind, receiver, block_time) WHERE receiver IS NOT NULL;
                    """)
        }
        return migrator
    }
}
