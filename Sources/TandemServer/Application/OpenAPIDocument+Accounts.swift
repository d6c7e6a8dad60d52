import Foundation

extension OpenAPIDocument {
    /// Paths of BetterAuth's session and user management, the e-mail and availability routes
    /// and `/metrics` (issue 13), merged into `core` under `paths`.
    static let accountPaths = #"""
        {
          "/api/auth/sign-in/email": {
            "post": {
              "operationId": "signInEmail", "summary": "Sign in with e-mail and password (sets the session cookie)",
              "requestBody": { "required": true, "content": { "application/json": { "schema": {
                "type": "object", "required": ["email", "password"],
                "properties": { "email": { "type": "string" }, "password": { "type": "string" },
                  "callbackURL": { "type": "string" }, "rememberMe": { "type": "boolean" } } } } } },
              "responses": {
                "200": { "description": "Signed in", "content": { "application/json": { "schema": {
                  "type": "object", "required": ["redirect", "token", "user"],
                  "properties": { "redirect": { "type": "boolean" }, "token": { "type": "string" }, "url": { "type": "string" },
                    "user": { "$ref": "#/components/schemas/User" } } } } } },
                "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" },
                "403": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/Error" }
              }
            }
          },
          "/api/auth/is-username-available": {
            "post": {
              "operationId": "isUsernameAvailable", "summary": "Whether a username is free (username plugin)",
              "requestBody": { "required": true, "content": { "application/json": { "schema": {
                "type": "object", "required": ["username"], "properties": { "username": { "type": "string" } } } } } },
              "responses": {
                "200": { "description": "Availability", "content": { "application/json": { "schema": {
                  "type": "object", "required": ["available"], "properties": { "available": { "type": "boolean" } } } } } },
                "400": { "$ref": "#/components/responses/Error" }, "403": { "$ref": "#/components/responses/OriginRejected" },
                "422": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/Error" }
              }
            }
          },
          "/api/auth/list-sessions": {
            "get": {
              "operationId": "listUserSessions",
              "summary": "The caller's unexpired sessions; token is the raw token for this session and the token's SHA-256 hex for the others",
              "security": [{ "sessionCookie": [] }],
              "responses": {
                "200": { "description": "Sessions", "content": { "application/json": { "schema": {
                  "type": "array", "items": { "$ref": "#/components/schemas/Session" } } } } },
                "401": { "$ref": "#/components/responses/Error" }
              }
            }
          },
          "/api/auth/revoke-session": {
            "post": {
              "operationId": "revokeSession", "summary": "End one of the caller's sessions, by raw token or listed token hash",
              "security": [{ "sessionCookie": [] }],
              "requestBody": { "required": true, "content": { "application/json": { "schema": {
                "type": "object", "required": ["token"], "properties": { "token": { "type": "string" } } } } } },
              "responses": {
                "200": { "$ref": "#/components/responses/Status" },
                "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" },
                "403": { "$ref": "#/components/responses/Error" }
              }
            }
          },
          "/api/auth/revoke-other-sessions": {
            "post": {
              "operationId": "revokeOtherSessions", "summary": "End every session of the caller but this one",
              "security": [{ "sessionCookie": [] }],
              "responses": {
                "200": { "$ref": "#/components/responses/Status" },
                "401": { "$ref": "#/components/responses/Error" }, "403": { "$ref": "#/components/responses/Error" }
              }
            }
          },
          "/api/auth/revoke-sessions": {
            "post": {
              "operationId": "revokeSessions", "summary": "End every session of the caller, this one included",
              "security": [{ "sessionCookie": [] }],
              "responses": {
                "200": { "$ref": "#/components/responses/Status" },
                "401": { "$ref": "#/components/responses/Error" }, "403": { "$ref": "#/components/responses/Error" }
              }
            }
          },
          "/api/auth/update-user": {
            "post": {
              "operationId": "updateUser", "summary": "Change name, image or username (email cannot be changed)",
              "security": [{ "sessionCookie": [] }],
              "requestBody": { "required": true, "content": { "application/json": { "schema": {
                "type": "object",
                "properties": { "name": { "type": "string", "maxLength": 64 }, "image": { "type": ["string", "null"], "maxLength": 2048 },
                  "username": { "type": "string", "pattern": "^[a-zA-Z0-9_.]{3,30}$" },
                  "displayUsername": { "type": "string", "maxLength": 64 },
                  "email": { "description": "Refused: 400 EMAIL_CAN_NOT_BE_UPDATED" } } } } } },
              "responses": {
                "200": { "$ref": "#/components/responses/Status" },
                "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" },
                "403": { "$ref": "#/components/responses/Error" }
              }
            }
          },
          "/api/auth/change-password": {
            "post": {
              "operationId": "changePassword", "summary": "Replace the password; optionally end every other session",
              "security": [{ "sessionCookie": [] }],
              "requestBody": { "required": true, "content": { "application/json": { "schema": {
                "type": "object", "required": ["newPassword", "currentPassword"],
                "properties": { "newPassword": { "type": "string", "maxLength": 128, "description": "8 to 128 UTF-16 code units, as BetterAuth counts (a character outside the Basic Multilingual Plane counts two). JSON Schema counts code points, so only the upper bound is stated: over 128 code points is always over 128 units, while fewer than 8 code points may still be 8 units" },
                  "currentPassword": { "type": "string" }, "revokeOtherSessions": { "type": "boolean" } } } } } },
              "responses": {
                "200": { "description": "Changed; token is the new session's when other sessions were revoked", "content": { "application/json": { "schema": {
                  "type": "object", "required": ["token", "user"],
                  "properties": { "token": { "type": ["string", "null"] }, "user": { "$ref": "#/components/schemas/User" } } } } } },
                "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" },
                "403": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/Error" }
              }
            }
          },
          "/metrics": {
            "get": {
              "operationId": "metrics", "summary": "Prometheus text exposition; 404 unless the server runs with --metrics",
              "responses": {
                "200": { "description": "Metrics", "content": { "text/plain": { "schema": { "type": "string" } } } },
                "404": { "description": "Metrics are off" }
              }
            }
          },
          "/api/auth/delete-user": {
            "post": {
              "operationId": "deleteUser", "summary": "Delete the account and every row of it; the password is required",
              "security": [{ "sessionCookie": [] }],
              "requestBody": { "required": true, "content": { "application/json": { "schema": {
                "type": "object", "required": ["password"],
                "properties": { "password": { "type": "string" }, "callbackURL": { "type": "string" },
                  "token": { "type": "string", "description": "Accepted and ignored: Tandem sends no deletion e-mails" } } } } } },
              "responses": {
                "200": { "description": "Deleted", "content": { "application/json": { "schema": {
                  "type": "object", "required": ["success", "message"],
                  "properties": { "success": { "const": true }, "message": { "const": "User deleted" } } } } } },
                "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" },
                "403": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/Error" }
              }
            }
          }
        }
        """#

    /// The `{status:true}` answer shared by the revoke routes and update-user.
    static let statusResponse = #"""
        { "description": "Done", "content": { "application/json": { "schema": {
          "type": "object", "required": ["status"], "properties": { "status": { "const": true } } } } } }
        """#

    /// `core` with `paths` added to its paths (and the shared `Status` response); `core`
    /// alone if either fails to parse, which the OpenAPI test would catch.
    static func merged(_ core: String, _ paths: String) -> String {
        guard var document = object(core), let extra = object(paths), let status = object(statusResponse),
            var allPaths = document["paths"] as? [String: Any],
            var components = document["components"] as? [String: Any],
            var responses = components["responses"] as? [String: Any]
        else { return core }
        for (path, item) in extra { allPaths[path] = item }
        responses["Status"] = status
        components["responses"] = responses
        document["components"] = components
        document["paths"] = allPaths
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        else { return core }
        return String(decoding: data, as: UTF8.self)
    }

    private static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}
