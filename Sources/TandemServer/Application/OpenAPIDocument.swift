/// The OpenAPI 3.1 description of every route, served at `/openapi.json`. A test checks that
/// its operations and the router's routes are the same set.
enum OpenAPIDocument {
    static let json = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "Tandem server API",
        "version": "1.0.0",
        "description": "BetterAuth v1.7-compatible accounts (username sign-in, e-mail sign-up, cookie sessions) and the Tandem chat profile."
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
          "ChatProfile": {
            "type": "object", "required": ["userId", "displayName", "kaspaAddress", "publicKeys", "updatedAt"],
            "properties": {
              "userId": { "type": "string" }, "displayName": { "type": "string" },
              "kaspaAddress": { "type": ["string", "null"] },
              "publicKeys": { "type": "array", "items": { "type": "string", "pattern": "^[0-9a-f]{64}([0-9a-f]{2})?$" } },
              "updatedAt": { "type": "string", "format": "date-time" }
            }
          }
        },
        "responses": {
          "Error": { "description": "Error", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
        }
      },
      "paths": {
        "/health": {
          "get": {
            "operationId": "health", "summary": "Liveness check",
            "responses": { "200": { "description": "Up", "content": { "application/json": { "schema": {
              "type": "object", "properties": { "status": { "const": "ok" } } } } } } }
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
                "password": { "type": "string", "minLength": 8, "maxLength": 128 },
                "username": { "type": "string", "pattern": "^[a-zA-Z0-9_.]{3,30}$" }, "displayUsername": { "type": "string" },
                "image": { "type": "string" }, "callbackURL": { "type": "string" }, "rememberMe": { "type": "boolean" } } } } } },
            "responses": {
              "200": { "description": "Signed up", "content": { "application/json": { "schema": {
                "type": "object", "required": ["token", "user"],
                "properties": { "token": { "type": ["string", "null"] }, "user": { "$ref": "#/components/schemas/User" } } } } } },
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
              "properties": { "username": { "type": "string" }, "password": { "type": "string" },
                "rememberMe": { "type": "boolean" }, "callbackURL": { "type": "string" } } } } } },
            "responses": {
              "200": { "description": "Signed in", "content": { "application/json": { "schema": {
                "type": "object", "required": ["redirect", "token", "user"],
                "properties": { "redirect": { "type": "boolean" }, "token": { "type": "string" }, "url": { "type": "string" },
                  "user": { "$ref": "#/components/schemas/User" } } } } } },
              "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" },
              "422": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/Error" }
            }
          }
        },
        "/api/auth/get-session": {
          "get": {
            "operationId": "getSession", "summary": "The current session, or null",
            "parameters": [
              { "name": "disableCookieCache", "in": "query", "schema": { "type": "boolean" } },
              { "name": "disableRefresh", "in": "query", "schema": { "type": "boolean" } }
            ],
            "security": [{ "sessionCookie": [] }, {}],
            "responses": { "200": { "description": "Session or null", "content": { "application/json": { "schema": {
              "oneOf": [ { "type": "null" }, { "type": "object", "required": ["session", "user"], "properties": {
                "session": { "$ref": "#/components/schemas/Session" }, "user": { "$ref": "#/components/schemas/User" } } } ] } } } } }
          },
          "post": {
            "operationId": "getSessionPost", "summary": "Not available: deferred session refresh is off",
            "responses": { "405": { "$ref": "#/components/responses/Error" } }
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
                "kaspaAddress": { "type": ["string", "null"] }, "publicKeys": { "type": "array", "maxItems": 16, "items": { "type": "string" } } } } } } },
            "responses": {
              "200": { "description": "Updated profile", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ChatProfile" } } } },
              "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" },
              "403": { "$ref": "#/components/responses/Error" }
            }
          }
        },
        "/users/login": {
          "post": {
            "operationId": "legacyLogin", "summary": "Removed idAlias login: always 410 LEGACY_LOGIN_REMOVED", "deprecated": true,
            "responses": { "410": { "$ref": "#/components/responses/Error" } }
          }
        }
      }
    }
    """#
}
