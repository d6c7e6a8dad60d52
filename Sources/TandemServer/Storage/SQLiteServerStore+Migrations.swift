import GRDB

extension SQLiteServerStore {
    /// Shipped migrations are never edited; new ones are appended.
    /// Times are milliseconds since 1970 (INTEGER), the same in both backends.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-auth-and-profiles") { db in
            try db.execute(sql: """
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
        return migrator
    }
}
