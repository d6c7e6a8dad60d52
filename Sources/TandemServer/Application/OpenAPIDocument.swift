/// The OpenAPI 3.1 description of every route, served at `/openapi.json`. A test checks that
/// its operations and the router's routes are the same set.
enum OpenAPIDocument {
    /// The whole document: `core` with the account routes of issue 13 and the sync routes of
    /// issue 12 merged in.
    static let json: String = merged(merged(core, accountPaths), syncPaths)

    static let core = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Tandem server API",
            "version": "1.0.0",
            "description": "BetterAuth v1.7-compatible accounts (username sign-in, e-mail sign-up, cookie sessions) the Tandem chat profile, and the Kasia relay: signed submissions, kasia-indexer-compatible reads under /kasia and a Server-Sent Events stream."
          },
          "servers": [{ "url": "http://127.0.0.1:8080" }],
          "components": {
            "securitySchemes": {
              "sessionCookie": { "type": "apiKey", "in": "cookie", "name": "better-auth.session_token" }
            },
            "schemas": {
              "Error": {
                "type": "object", "required": ["message"],
                "properties": { "code": { "type": "string" }, "message": { "type": "string" } }
              },
              "User": {
                "type": "object",
                "required": ["id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt", "username", "displayUsername"],
                "properties": {
                  "id": { "type": "string" }, "name": { "type": "string" }, "email": { "type": "string", "format": "email" },
                  "emailVerified": { "type": "boolean" }, "image": { "type": ["string", "null"] },
                  "createdAt": { "type": "string", "format": "date-time" }, "updatedAt": { "type": "string", "format": "date-time" },
                  "username": { "type": ["string", "null"] }, "displayUsername": { "type": ["string", "null"] }
                }
              },
              "Session": {
                "type": "object",
                "required": ["id", "token", "userId", "expiresAt", "createdAt", "updatedAt", "ipAddress", "userAgent"],
                "properties": {
                  "id": { "type": "string" }, "token": { "type": "string" }, "userId": { "type": "string" },
                  "expiresAt": { "type": "string", "format": "date-time" }, "createdAt": { "type": "string", "format": "date-time" },
                  "updatedAt": { "type": "string", "format": "date-time" }, "ipAddress": { "type": ["string", "null"] },
                  "userAgent": { "type": ["string", "null"] }
                }
              },
              "DeviceKey": {
                "type": "object", "required": ["publicKey", "createdAt"],
                "properties": { "publicKey": { "type": "string" }, "createdAt": { "type": "string", "format": "date-time" }, "revokedAt": { "type": "string", "format": "date-time" } }
              },
              "ContactRecord": {
                "type": "object", "required": ["id", "box", "version"],
                "properties": { "id": { "type": "string" }, "box": { "type": "string", "contentEncoding": "base64" }, "version": { "type": "integer" } }
              },
              "IndexerError": {
                "type": "object", "required": ["error"], "properties": { "error": { "type": "string" } }
              },
              "KaspaAddress": {
                "type": "string", "pattern": "^(kaspa|kaspatest|kaspasim|kaspadev):[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{61}([qpzry9x8gf2tvdw0s3jn54khce6mua7l]{2})?$",
                "description": "Kaspa address (kaspa-address.md); the server also verifies its checksum"
              },
              "RelaySubmission": {
                "type": "object", "required": ["payload", "sender", "nonce", "signature"],
                "properties": {
                  "payload": { "type": "string", "pattern": "^([0-9a-f]{2})+$", "maxLength": 20480, "description": "Hex of the Kasia tx payload (ciph_msg:…), at most 10240 bytes" },
                  "sender": { "$ref": "#/components/schemas/KaspaAddress", "description": "Version-0 (Schnorr) Kaspa address of the signer" },
                  "receiver": { "$ref": "#/components/schemas/KaspaAddress", "description": "First output's address: required for handshakes and payments, absent otherwise" },
                  "amount": { "type": "integer", "minimum": 0, "description": "Sompi of the first output" },
                  "nonce": { "type": "integer", "minimum": 0, "maximum": 18446744073709551615 },
                  "signature": { "type": "string", "pattern": "^[0-9a-f]{128}$", "description": "BIP-340 over SHA-256(\"tandem-relay/v1\\n\" ‖ sender ‖ \"\\n\" ‖ receiver ‖ \"\\n\" ‖ amount ‖ \"\\n\" ‖ nonce ‖ \"\\n\" ‖ payload)" }
                }
              },
              "RelayKaspaSubmission": {
                "type": "object", "required": ["transaction"],
                "properties": {
                  "transaction": { "type": "object", "required": ["version", "inputs", "outputs", "subnetworkId"],
                    "description": "A signed Kaspa transaction in the rusty-kaspa SDK's Transaction.to_dict form, every input with its utxo (UtxoEntry.to_dict); each input's signature must verify against its UTXO's script: BIP-340 over the Schnorr sighash for a Schnorr address, libsecp256k1 ECDSA over the ECDSA sighash for an ECDSA address. Pay-to-script-hash inputs are refused with 400 UNSUPPORTED_SCRIPT (a redeem script needs a script engine the relay does not run); a bad signature is 400 INVALID_SIGNATURE. Sender = first input's address, receiver/amount = first output (handshakes, payments), tx_id = the Kaspa transaction id, payload = its payload (issue 15).",
                    "properties": {
                      "version": { "type": "integer", "const": 0 }, "inputs": { "type": "array", "minItems": 1, "maxItems": 128 },
                      "outputs": { "type": "array", "minItems": 1, "maxItems": 128 }, "lockTime": { "type": "integer" },
                      "subnetworkId": { "type": "string", "pattern": "^0{40}$" }, "gas": { "type": "integer", "const": 0 },
                      "payload": { "type": "string", "pattern": "^([0-9a-f]{2})*$", "maxLength": 20480 }
                    } }
                }
              },
              "HealthKaspa": {
                "description": "With --kaspa-node: the chain index (issue 25)",
                "type": "object", "required": ["node", "synced", "lagBlocks", "role", "error"],
                "properties": { "node": { "type": ["string", "null"] }, "synced": { "type": "boolean" },
                  "lagBlocks": { "type": ["integer", "null"], "minimum": 0 }, "role": { "enum": ["ingester", "standby"] },
                  "error": { "type": ["string", "null"] } }
              },
              "RelayReceipt": {
                "type": "object", "required": ["tx_id", "block_time"],
                "properties": { "tx_id": { "type": "string", "pattern": "^[0-9a-f]{64}$" }, "block_time": { "type": "integer" },
                  "kaspa": { "description": "With --kaspa-node, a signed Kaspa transaction's submission to the node",
                    "type": "object", "required": ["accepted"],
                    "properties": { "accepted": { "type": "boolean" }, "node": { "type": "string" }, "reason": { "type": "string" } } } }
              },
              "Handshake": {
                "type": "object", "required": ["tx_id", "sender", "receiver", "block_time", "accepting_block", "accepting_daa_score", "message_payload"],
                "properties": { "tx_id": { "type": "string" }, "sender": { "type": "string" }, "receiver": { "type": "string" },
                  "block_time": { "type": "integer" }, "accepting_block": { "type": ["string", "null"] },
                  "accepting_daa_score": { "type": ["integer", "null"] }, "message_payload": { "type": "string" } }
              },
              "ContextualMessage": {
                "type": "object", "required": ["tx_id", "sender", "alias", "block_time", "accepting_block", "accepting_daa_score", "message_payload"],
                "properties": { "tx_id": { "type": "string" }, "sender": { "type": "string" }, "alias": { "type": "string" },
                  "block_time": { "type": "integer" }, "accepting_block": { "type": ["string", "null"] },
                  "accepting_daa_score": { "type": ["integer", "null"] }, "message_payload": { "type": "string" } }
              },
              "Payment": {
                "type": "object", "required": ["tx_id", "sender", "receiver", "block_time", "amount", "message", "accepting_block", "accepting_daa_score"],
                "properties": { "tx_id": { "type": "string" }, "sender": { "type": "string" }, "receiver": { "type": "string" },
                  "block_time": { "type": "integer" }, "amount": { "type": "integer" }, "message": { "type": "string" },
                  "accepting_block": { "type": ["string", "null"] }, "accepting_daa_score": { "type": ["integer", "null"] } }
              },
              "SelfStash": {
                "type": "object", "required": ["tx_id", "owner", "scope", "block_time", "accepting_block", "accepting_daa_score", "stashed_data"],
                "properties": { "tx_id": { "type": "string" }, "owner": { "type": "string" }, "scope": { "type": "string", "description": "The scope parameter as given (stream rows: the stored hex, empty when unscoped)" },
                  "block_time": { "type": "integer" }, "accepting_block": { "type": ["string", "null"] },
                  "accepting_daa_score": { "type": ["integer", "null"] }, "stashed_data": { "type": "string" } }
              },
              "ChatProfile": {
                "type": "object", "required": ["userId", "displayName", "kaspaAddress", "publicKeys", "updatedAt"],
                "properties": {
                  "userId": { "type": "string" }, "displayName": { "type": "string" },
                  "kaspaAddress": { "type": ["string", "null"], "pattern": "^(kaspa|kaspatest|kaspasim|kaspadev):[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{61}([qpzry9x8gf2tvdw0s3jn54khce6mua7l]{2})?$", "description": "Kaspa address (kaspa-address.md), checksum verified by the server" },
                  "publicKeys": { "type": "array", "items": { "type": "string", "pattern": "^[0-9a-f]{64}([0-9a-f]{2})?$" } },
                  "updatedAt": { "type": "string", "format": "date-time" }
                }
              }
            },
            "responses": {
              "Error": { "description": "Error", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
              "OriginRejected": { "description": "A request that carries a cookie without a trusted Origin (BetterAuth's CSRF check: MISSING_OR_NULL_ORIGIN, INVALID_ORIGIN)", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
              "IndexerError": { "description": "Bad query parameter", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/IndexerError" } } } },
              "SyncBusy": { "description": "SYNC_BUSY (PostgreSQL only): the server runs the writes that take the sync clock one at a time, queued in the server process; the queue is full (by default 256 writes, 64 of one account: tandem serve --sync-queue-limit, --sync-queue-per-account) or this write waited in it (10 s by default, --sync-queue-wait), or another server instance held the clock 2 s. The database is fine: retry after Retry-After (seconds). Never answered as 503 DATABASE_UNAVAILABLE. On SQLite the single writer orders these writes without a queue, and this answer never comes.", "headers": { "Retry-After": { "schema": { "type": "integer", "minimum": 1 } } }, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
            },
            "parameters": {
              "limit": { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 0, "default": 10, "maximum": 50 } },
              "blockTime": { "name": "block_time", "in": "query", "description": "Inclusive cursor (ms)", "schema": { "type": "integer", "minimum": 0, "default": 0 } },
              "address": { "name": "address", "in": "query", "required": true, "schema": { "$ref": "#/components/schemas/KaspaAddress" } },
              "syncAfter": { "name": "after", "in": "query", "description": "Opaque cursor from the previous page; absent for the start", "schema": { "type": "string" } },
              "syncLimit": { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "default": 500, "maximum": 1000 } }
            }
          },
          "paths": {
            "/health": {
              "get": {
                "operationId": "health", "summary": "Readiness: the server is up and its database answers",
                "responses": {
                  "200": { "description": "Ready", "content": { "application/json": { "schema": {
                    "type": "object", "required": ["status"],
                    "properties": { "status": { "const": "ok" }, "kaspa": { "$ref": "#/components/schemas/HealthKaspa" } } } } } },
                  "503": { "description": "The database does not answer", "content": { "application/json": { "schema": {
                    "type": "object", "required": ["status"],
                    "properties": { "status": { "const": "unavailable" }, "kaspa": { "$ref": "#/components/schemas/HealthKaspa" } } } } } }
                }
              },
              "head": {
                "operationId": "healthHead", "summary": "Readiness, status only (no body)",
                "responses": { "200": { "description": "Ready" }, "503": { "description": "The database does not answer" } }
              }
            },
            "/openapi.json": {
              "get": { "operationId": "openAPI", "summary": "This document", "responses": { "200": { "description": "OpenAPI 3.1 JSON" } } }
            },
            "/api/auth/sign-up/email": {
              "post": {
                "operationId": "signUpEmail", "summary": "Register and sign in (sets the session cookie)",
                "requestBody": { "required": true, "content": { "application/json": { "schema": {
                  "type": "object", "required": ["name", "email", "password", "username"],
                  "properties": {
                    "name": { "type": "string" }, "email": { "type": "string", "format": "email" },
                    "password": { "type": "string", "maxLength": 128, "description": "8 to 128 UTF-16 code units, as BetterAuth counts (a character outside the Basic Multilingual Plane counts two). JSON Schema counts code points, so only the upper bound is stated: over 128 code points is always over 128 units, while fewer than 8 code points may still be 8 units" },
                    "username": { "type": "string", "pattern": "^[a-zA-Z0-9_.]{3,30}$" }, "displayUsername": { "type": "string" },
                    "image": { "type": "string" }, "callbackURL": { "type": "string" }, "rememberMe": { "type": "boolean" } } } } } },
                "responses": {
                  "200": { "description": "Signed up", "content": { "application/json": { "schema": {
                    "type": "object", "required": ["token", "user"],
                    "properties": { "token": { "type": ["string", "null"] }, "user": { "$ref": "#/components/schemas/User" } } } } },
                    "links": {
                      "SignInAgain": { "operationId": "signInUsername", "description": "The account just made signs in with the same credentials",
                        "requestBody": { "username": "$request.body#/username", "password": "$request.body#/password" } },
                      "ReadProfile": { "operationId": "getMyProfile", "description": "The new session reads its profile" },
                      "ReadSession": { "operationId": "getSession", "description": "The new session is the current one" },
                      "SignOut": { "operationId": "signOut", "description": "The new session ends" } } },
                  "400": { "$ref": "#/components/responses/Error" }, "403": { "$ref": "#/components/responses/Error" },
                  "413": { "$ref": "#/components/responses/Error" }, "415": { "$ref": "#/components/responses/Error" },
                  "422": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/api/auth/sign-in/username": {
              "post": {
                "operationId": "signInUsername", "summary": "Sign in with username and password (sets the session cookie)",
                "requestBody": { "required": true, "content": { "application/json": { "schema": {
                  "type": "object", "required": ["username", "password"],
                  "properties": { "username": { "type": "string", "pattern": "^[a-zA-Z0-9_.]{3,30}$" }, "password": { "type": "string" },
                    "rememberMe": { "type": "boolean" }, "callbackURL": { "type": "string" } } } } } },
                "responses": {
                  "200": { "description": "Signed in", "content": { "application/json": { "schema": {
                    "type": "object", "required": ["redirect", "token", "user"],
                    "properties": { "redirect": { "type": "boolean" }, "token": { "type": "string" }, "url": { "type": "string" },
                      "user": { "$ref": "#/components/schemas/User" } } } } },
                    "links": {
                      "ReadProfile": { "operationId": "getMyProfile", "description": "The session reads its profile" },
                      "UpdateProfile": { "operationId": "updateMyProfile", "description": "The session changes its profile" },
                      "SignOut": { "operationId": "signOut", "description": "The session ends" } } },
                  "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" }, "422": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/api/auth/get-session": {
              "get": {
                "operationId": "getSession", "summary": "The current session, or null",
                "parameters": [
                  { "name": "disableCookieCache", "in": "query", "description": "Coerced like BetterAuth's z.coerce.boolean; the server keeps no cookie cache", "schema": { "type": "string" } },
                  { "name": "disableRefresh", "in": "query", "description": "\"true\" reads the session without extending it; any other value refreshes", "schema": { "type": "string" } }
                ],
                "security": [{ "sessionCookie": [] }, {}],
                "responses": { "200": { "description": "Session or null", "content": { "application/json": { "schema": {
                  "oneOf": [ { "type": "null" }, { "type": "object", "required": ["session", "user"], "properties": {
                    "session": { "$ref": "#/components/schemas/Session" }, "user": { "$ref": "#/components/schemas/User" } } } ] } } } } }
              },
              "post": {
                "operationId": "getSessionPost", "summary": "Not available: deferred session refresh is off",
                "responses": { "403": { "$ref": "#/components/responses/OriginRejected" }, "405": { "$ref": "#/components/responses/Error" } }
              }
            },
            "/api/auth/sign-out": {
              "post": {
                "operationId": "signOut", "summary": "End the current session and expire the cookie",
                "security": [{ "sessionCookie": [] }, {}],
                "responses": {
                  "200": { "description": "Signed out", "content": { "application/json": { "schema": {
                    "type": "object", "properties": { "success": { "const": true } } } } } },
                  "403": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/api/me/profile": {
              "get": {
                "operationId": "getMyProfile", "summary": "The signed-in user's chat profile", "security": [{ "sessionCookie": [] }],
                "responses": {
                  "200": { "description": "Profile", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ChatProfile" } } } },
                  "401": { "$ref": "#/components/responses/Error" }
                }
              },
              "put": {
                "operationId": "updateMyProfile", "summary": "Change the signed-in user's chat profile", "security": [{ "sessionCookie": [] }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": {
                  "type": "object", "properties": { "displayName": { "type": "string", "minLength": 1, "maxLength": 64 },
                    "kaspaAddress": { "type": ["string", "null"], "pattern": "^(kaspa|kaspatest|kaspasim|kaspadev):[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{61}([qpzry9x8gf2tvdw0s3jn54khce6mua7l]{2})?$", "description": "Kaspa address (kaspa-address.md), checksum verified by the server" }, "publicKeys": { "type": "array", "maxItems": 16, "items": { "type": "string" } } } } } } },
                "responses": {
                  "200": { "description": "Updated profile", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ChatProfile" } } } },
                  "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/kasia/transactions": {
              "post": {
                "operationId": "relaySubmit", "summary": "Relay a signed Kasia payload (idempotent per tx_id)",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "oneOf": [
                  { "$ref": "#/components/schemas/RelaySubmission" }, { "$ref": "#/components/schemas/RelayKaspaSubmission" } ] } } } },
                "responses": {
                  "200": { "description": "Stored (or already stored)", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RelayReceipt" } } } },
                  "400": { "$ref": "#/components/responses/Error" }, "413": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/OriginRejected" },
                  "415": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/kasia/handshakes/by-sender": {
              "get": {
                "operationId": "handshakesBySender", "summary": "Handshakes sent by an address",
                "parameters": [{ "$ref": "#/components/parameters/address" }, { "$ref": "#/components/parameters/limit" }, { "$ref": "#/components/parameters/blockTime" }],
                "responses": {
                  "200": { "description": "Rows ascending by block_time", "content": { "application/json": { "schema": {
                    "type": "array", "items": { "$ref": "#/components/schemas/Handshake" } } } } },
                  "400": { "$ref": "#/components/responses/IndexerError" }
                }
              }
            },
            "/kasia/handshakes/by-receiver": {
              "get": {
                "operationId": "handshakesByReceiver", "summary": "Handshakes received by an address",
                "parameters": [{ "$ref": "#/components/parameters/address" }, { "$ref": "#/components/parameters/limit" }, { "$ref": "#/components/parameters/blockTime" }],
                "responses": {
                  "200": { "description": "Rows ascending by block_time", "content": { "application/json": { "schema": {
                    "type": "array", "items": { "$ref": "#/components/schemas/Handshake" } } } } },
                  "400": { "$ref": "#/components/responses/IndexerError" }
                }
              }
            },
            "/kasia/contextual-messages/by-sender": {
              "get": {
                "operationId": "contextualMessagesBySender", "summary": "Contextual messages of a sender under one alias",
                "parameters": [{ "$ref": "#/components/parameters/address" }, { "name": "alias", "in": "query", "required": true, "description": "Hex of the alias bytes (max 32 hex)", "schema": { "type": "string", "pattern": "^([0-9a-fA-F]{2}){0,16}$" } }, { "$ref": "#/components/parameters/limit" }, { "$ref": "#/components/parameters/blockTime" }],
                "responses": {
                  "200": { "description": "Rows ascending by block_time", "content": { "application/json": { "schema": {
                    "type": "array", "items": { "$ref": "#/components/schemas/ContextualMessage" } } } } },
                  "400": { "$ref": "#/components/responses/IndexerError" }
                }
              }
            },
            "/kasia/payments/by-sender": {
              "get": {
                "operationId": "paymentsBySender", "summary": "Payments sent by an address (sender is null)",
                "parameters": [{ "$ref": "#/components/parameters/address" }, { "$ref": "#/components/parameters/limit" }, { "$ref": "#/components/parameters/blockTime" }],
                "responses": {
                  "200": { "description": "Rows ascending by block_time", "content": { "application/json": { "schema": {
                    "type": "array", "items": { "$ref": "#/components/schemas/Payment" } } } } },
                  "400": { "$ref": "#/components/responses/IndexerError" }
                }
              }
            },
            "/kasia/payments/by-receiver": {
              "get": {
                "operationId": "paymentsByReceiver", "summary": "Payments received by an address",
                "parameters": [{ "$ref": "#/components/parameters/address" }, { "$ref": "#/components/parameters/limit" }, { "$ref": "#/components/parameters/blockTime" }],
                "responses": {
                  "200": { "description": "Rows ascending by block_time", "content": { "application/json": { "schema": {
                    "type": "array", "items": { "$ref": "#/components/schemas/Payment" } } } } },
                  "400": { "$ref": "#/components/responses/IndexerError" }
                }
              }
            },
            "/kasia/self-stash/by-owner": {
              "get": {
                "operationId": "selfStashByOwner", "summary": "Self-stashes of an owner under one scope (empty: unscoped)",
                "parameters": [{ "name": "owner", "in": "query", "required": true, "schema": { "$ref": "#/components/schemas/KaspaAddress" } }, { "name": "scope", "in": "query", "required": true, "description": "Hex of the scope bytes (max 510 hex; empty for stashes without a scope), echoed in each row", "schema": { "type": "string", "pattern": "^([0-9a-fA-F]{2}){0,255}$" } }, { "$ref": "#/components/parameters/limit" }, { "$ref": "#/components/parameters/blockTime" }],
                "responses": {
                  "200": { "description": "Rows ascending by block_time", "content": { "application/json": { "schema": {
                    "type": "array", "items": { "$ref": "#/components/schemas/SelfStash" } } } } },
                  "400": { "$ref": "#/components/responses/IndexerError" }
                }
              }
            },
            "/kasia/metrics": {
              "get": {
                "operationId": "kasiaMetrics", "summary": "kasia-indexer counters (a ping for Kasia clients)",
                "responses": { "200": { "description": "Counters, in kasia-indexer's field order", "content": { "application/json": { "schema": {
                  "type": "object",
                  "required": ["handshakes_by_sender", "uniq_handshakes_by_receiver", "payments_by_sender", "uniq_payments_by_receiver", "contextual_messages", "blocks_processed", "latest_block", "latest_accepting_block", "unknown_sender_entries", "resolved_senders", "pruned_blocks"],
                  "properties": { "handshakes_by_sender": { "type": "integer" }, "uniq_handshakes_by_receiver": { "type": "integer" },
                    "payments_by_sender": { "type": "integer" }, "uniq_payments_by_receiver": { "type": "integer" },
                    "contextual_messages": { "type": "integer" }, "blocks_processed": { "type": "integer" },
                    "latest_block": { "type": "string", "pattern": "^[0-9a-f]{64}$" }, "latest_accepting_block": { "type": "string", "pattern": "^[0-9a-f]{64}$" },
                    "unknown_sender_entries": { "type": "integer" }, "resolved_senders": { "type": "integer" }, "pruned_blocks": { "type": "integer" } } } } } } }
              }
            },
            "/kasia/stream": {
              "get": {
                "operationId": "kasiaStream", "summary": "Server-Sent Events of new rows for watched aliases and addresses",
                "parameters": [
                  { "name": "alias", "in": "query", "description": "Repeatable; hex of an alias", "schema": { "type": "string", "pattern": "^([0-9a-fA-F]{2}){0,16}$" } },
                  { "name": "address", "in": "query", "description": "Repeatable; rows it sends, receives or owns", "schema": { "$ref": "#/components/schemas/KaspaAddress" } },
                  { "name": "Last-Event-ID", "in": "header", "description": "Resume after this position (an event's id)", "schema": { "type": "integer" } },
                  { "name": "last_event_id", "in": "query", "description": "Same as Last-Event-ID, for EventSource", "schema": { "type": "integer" } }
                ],
                "responses": {
                  "200": { "description": "event: handshake|contextual_message|payment|self_stash|broadcast; id: the row's position (commit order; a relayed row's block_time); data: the row JSON. A row the chain accepts or a reorg un-accepts is sent again", "content": { "text/event-stream": {} } },
                  "400": { "$ref": "#/components/responses/IndexerError" }
                }
              }
            },
            "/users/login": {
              "post": {
                "operationId": "legacyLogin", "summary": "Removed idAlias login: always 410 LEGACY_LOGIN_REMOVED", "deprecated": true,
                "responses": { "403": { "$ref": "#/components/responses/OriginRejected" }, "410": { "$ref": "#/components/responses/Error" } }
              }
            }
          }
        }
        """#
}
