/// The sync routes of issue 12 (device keys, Redo nodes, task sharing, contact records); their
/// parameters and schemas live in `core`'s components.
extension OpenAPIDocument {
    static let syncPaths = #"""
        {
            "/api/me/keys": {
              "get": {
                "operationId": "listDeviceKeys", "summary": "The account's device keys (Ed25519, Redo author.publicKey), revoked ones included", "security": [{ "sessionCookie": [] }],
                "responses": {
                  "200": { "description": "Keys, oldest first", "content": { "application/json": { "schema": { "type": "object", "required": ["keys"], "properties": { "keys": { "type": "array", "items": { "$ref": "#/components/schemas/DeviceKey" } } } } } } },
                  "401": { "$ref": "#/components/responses/Error" }
                }
              },
              "post": {
                "operationId": "registerDeviceKey", "summary": "Bind a device key to the account with proof of possession", "security": [{ "sessionCookie": [] }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": {
                  "type": "object", "required": ["publicKey", "signature"], "properties": {
                    "publicKey": { "type": "string", "pattern": "^[0-9a-f]{64}$" },
                    "signature": { "type": "string", "pattern": "^[0-9a-f]{128}$", "description": "Ed25519 over UTF-8 \"tandem-key-binding/v1\\n\" ‖ userId ‖ \"\\n\" ‖ publicKey" } } } } } },
                "responses": {
                  "200": { "description": "Already bound to this account", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/DeviceKey" } } } },
                  "201": { "description": "Bound", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/DeviceKey" } } } },
                  "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" }, "403": { "$ref": "#/components/responses/OriginRejected" },
                  "409": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/SyncBusy" }
                }
              }
            },
            "/api/me/keys/{publicKey}": {
              "delete": {
                "operationId": "revokeDeviceKey", "summary": "Revoke a device key: it may push no more nodes; accepted nodes stay valid", "security": [{ "sessionCookie": [] }],
                "parameters": [{ "name": "publicKey", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[0-9a-f]{64}$" } }],
                "responses": {
                  "200": { "description": "Revoked", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/DeviceKey" } } } },
                  "401": { "$ref": "#/components/responses/Error" }, "403": { "$ref": "#/components/responses/OriginRejected" }, "404": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/SyncBusy" }
                }
              }
            },
            "/api/redo/nodes": {
              "post": {
                "operationId": "pushRedoNodes", "summary": "Store signed Redo nodes (at most 500); one result per node, in order", "security": [{ "sessionCookie": [] }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": {
                  "type": "object", "required": ["nodes"], "properties": { "nodes": { "type": "array", "maxItems": 500, "items": { "type": "object", "description": "A Redo v1 node (redo-protocol §2), signed by a live device key of the account" } } } } } } },
                "responses": {
                  "200": { "description": "Per-node results", "content": { "application/json": { "schema": { "type": "object", "required": ["results"], "properties": { "results": { "type": "array", "items": {
                    "type": "object", "required": ["id", "status"], "properties": { "id": { "type": "string" }, "status": { "enum": ["accepted", "duplicate", "rejected"] },
                      "code": { "type": "string", "description": "E_* of redo-protocol §6.1, E_KEY_NOT_REGISTERED or E_TASK_FORBIDDEN" }, "message": { "type": "string" } } } } } } } } },
                  "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" }, "403": { "$ref": "#/components/responses/OriginRejected" },
                  "413": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/SyncBusy" }
                }
              },
              "get": {
                "operationId": "pullRedoNodes", "summary": "Nodes the account can read, in server order, after an opaque cursor", "security": [{ "sessionCookie": [] }],
                "parameters": [{ "$ref": "#/components/parameters/syncAfter" }, { "$ref": "#/components/parameters/syncLimit" }],
                "responses": {
                  "200": { "description": "One page", "content": { "application/json": { "schema": { "type": "object", "required": ["nodes", "cursor", "hasMore"], "properties": {
                    "nodes": { "type": "array", "items": { "type": "object" } }, "cursor": { "type": "string" }, "hasMore": { "type": "boolean" } } } } } },
                  "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/api/redo/tasks/{taskId}/share": {
              "post": {
                "operationId": "shareRedoTask", "summary": "Let another account read and edit a task (past and future nodes)", "security": [{ "sessionCookie": [] }],
                "parameters": [{ "name": "taskId", "in": "path", "required": true, "schema": { "type": "string", "format": "uuid" } }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "required": ["username"], "properties": { "username": { "type": "string" } } } } } },
                "responses": {
                  "200": { "description": "Shared (added is false when it already was)", "content": { "application/json": { "schema": { "type": "object", "required": ["taskId", "username", "added"],
                    "properties": { "taskId": { "type": "string" }, "username": { "type": "string" }, "added": { "type": "boolean" } } } } } },
                  "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" }, "403": { "$ref": "#/components/responses/OriginRejected" },
                  "404": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/SyncBusy" }
                }
              }
            },
            "/api/contacts/records": {
              "get": {
                "operationId": "pullContactRecords", "summary": "The account's encrypted contact records changed after an opaque cursor", "security": [{ "sessionCookie": [] }],
                "parameters": [{ "$ref": "#/components/parameters/syncAfter" }, { "$ref": "#/components/parameters/syncLimit" }],
                "responses": {
                  "200": { "description": "One page", "content": { "application/json": { "schema": { "type": "object", "required": ["records", "cursor", "hasMore"], "properties": {
                    "records": { "type": "array", "items": { "$ref": "#/components/schemas/ContactRecord" } }, "cursor": { "type": "string" }, "hasMore": { "type": "boolean" } } } } } },
                  "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" }
                }
              },
              "put": {
                "operationId": "putContactRecords", "summary": "Write records with compare-and-swap on each version: all or none", "security": [{ "sessionCookie": [] }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "required": ["records"], "properties": { "records": { "type": "array", "maxItems": 500, "items": {
                  "type": "object", "required": ["id", "box", "baseVersion"], "properties": { "id": { "type": "string", "pattern": "^[0-9a-f]{64}$" }, "box": { "type": "string", "contentEncoding": "base64" }, "baseVersion": { "type": "integer", "minimum": 0 } } } } } } } } },
                "responses": {
                  "200": { "description": "New versions", "content": { "application/json": { "schema": { "type": "object", "required": ["records"], "properties": { "records": { "type": "array", "items": {
                    "type": "object", "required": ["id", "version"], "properties": { "id": { "type": "string" }, "version": { "type": "integer" } } } } } } } } },
                  "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" }, "403": { "$ref": "#/components/responses/OriginRejected" },
                  "409": { "$ref": "#/components/responses/Error" }, "429": { "$ref": "#/components/responses/SyncBusy" }
                }
              }
            }
        }
        """#
}
