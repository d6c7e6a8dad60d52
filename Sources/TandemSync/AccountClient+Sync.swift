public import Foundation
public import RedoProtocol
public import TandemAPI
public import TandemAccounts

/// The sync routes of issue 12, guarded by the profile's session like every account call.
extension AccountClient {
    /// `GET /api/auth/get-session`'s user id: the account id a key binding names.
    public func accountID() async throws(AccountClientError) -> String {
        switch try await currentSession() {
        case .signedIn(let session): return session.user.id
        case .signedOut(let reason): throw .signedOut(reason)
        }
    }

    /// `POST /api/me/keys` with proof of possession (``DeviceKeyBinding``).
    @discardableResult
    public func registerDeviceKey(_ key: SigningKey, accountID: String) async throws(AccountClientError) -> DeviceKey {
        let publicKey = key.publicKey.description
        let signature = key.signature(for: DeviceKeyBinding.message(userID: accountID, publicKey: publicKey))
        let body = DeviceKeyRegistration(publicKey: publicKey, signature: signature.description)
        return try decode(try await guarded("POST", APIPath.myKeys, body: try encode(body)), path: APIPath.myKeys)
    }

    /// `GET /api/me/keys`.
    public func deviceKeys() async throws(AccountClientError) -> [DeviceKey] {
        let list: DeviceKeyList = try decode(try await guarded("GET", APIPath.myKeys, body: nil), path: APIPath.myKeys)
        return list.keys
    }

    /// `DELETE /api/me/keys/{publicKey}`.
    @discardableResult
    public func revokeDeviceKey(_ publicKey: String) async throws(AccountClientError) -> DeviceKey {
        let path = APIPath.myKey(publicKey)
        return try decode(try await guarded("DELETE", path, body: nil), path: path)
    }

    /// `POST /api/redo/nodes` with `{"nodes": [texts…]}` spliced from canonical node texts.
    public func pushNodes(_ texts: [[UInt8]]) async throws(AccountClientError) -> [RedoNodePushResult] {
        var body = Array(#"{"nodes":["#.utf8)
        for (index, text) in texts.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += text
        }
        body += Array("]}".utf8)
        let answer = try await guarded("POST", APIPath.redoNodes, body: Data(body))
        // The server's own form without JSONDecoder; any other text is decoded as before.
        if let response = RedoNodePushResponse(compactWire: answer.body) { return response.results }
        let response: RedoNodePushResponse = try decode(answer, path: APIPath.redoNodes)
        return response.results
    }

    /// `GET /api/redo/nodes?after=&limit=`: the raw page, parsed by the caller (nodes are
    /// validated on receipt, never trusted as decoded objects).
    public func pullNodes(after cursor: String?, limit: Int) async throws(AccountClientError) -> Data {
        try await guarded("GET", Self.paged(APIPath.redoNodes, after: cursor, limit: limit), body: nil).body
    }

    /// `POST /api/redo/tasks/{taskId}/share`.
    public func shareTask(_ taskID: TaskID, with username: String) async throws(AccountClientError)
        -> TaskShareResponse
    {
        let path = APIPath.shareTask(taskID.description)
        return try decode(
            try await guarded("POST", path, body: try encode(TaskShareRequest(username: username))), path: path)
    }

    /// `GET /api/redo/invitations`: shares waiting for this account's answer, oldest first.
    public func taskInvitations() async throws(AccountClientError) -> [TaskInvitation] {
        let response: TaskInvitationsResponse = try decode(
            try await guarded("GET", APIPath.taskInvitations, body: nil), path: APIPath.taskInvitations)
        return response.invitations
    }

    /// `POST /api/redo/invitations/{taskId}/accept` or `/decline`.
    public func answerTaskInvitation(_ taskID: TaskID, accept: Bool) async throws(AccountClientError)
        -> TaskInvitationAnswer
    {
        let id = taskID.description
        let path = accept ? APIPath.acceptInvitation(id) : APIPath.declineInvitation(id)
        return try decode(try await guarded("POST", path, body: Data("{}".utf8)), path: path)
    }

    /// `GET /api/contacts/records?after=&limit=`. A page in the server's own compact form is
    /// read without `JSONDecoder` (``ContactRecordPage/init(compactWire:)``); any other text is
    /// decoded as before.
    public func contactRecords(after cursor: String?, limit: Int) async throws(AccountClientError)
        -> ContactRecordPage
    {
        try await sealedRecords(.contacts, after: cursor, limit: limit)
    }

    /// `PUT /api/contacts/records`; a stale base version is `.server(409, .contactVersionConflict)`.
    public func putContactRecords(_ records: [ContactRecordWrite]) async throws(AccountClientError)
        -> [ContactRecordsPutResponse.Written]
    {
        try await putSealedRecords(records, in: .contacts)
    }

    /// `GET /api/tasks/presets?after=&limit=`: the account's sealed task presets, in the contact
    /// records' wire form.
    public func presetRecords(after cursor: String?, limit: Int) async throws(AccountClientError)
        -> ContactRecordPage
    {
        try await sealedRecords(.taskPresets, after: cursor, limit: limit)
    }

    /// `PUT /api/tasks/presets`; a stale base version is `.server(409, .presetVersionConflict)`.
    public func putPresetRecords(_ records: [ContactRecordWrite]) async throws(AccountClientError)
        -> [ContactRecordsPutResponse.Written]
    {
        try await putSealedRecords(records, in: .taskPresets)
    }

    /// `GET` a page of the collection's records after `cursor`, as ``contactRecords(after:limit:)``.
    public func sealedRecords(_ collection: SealedRecordCollection, after cursor: String?, limit: Int)
        async throws(AccountClientError) -> ContactRecordPage
    {
        let path = collection.path
        let response = try await guarded("GET", Self.paged(path, after: cursor, limit: limit), body: nil)
        if let page = ContactRecordPage(compactWire: response.body) { return page }
        return try decode(response, path: path)
    }

    /// `PUT` records of the collection by compare-and-swap; a stale base version is a 409 with
    /// the collection's conflict code.
    public func putSealedRecords(_ records: [ContactRecordWrite], in collection: SealedRecordCollection)
        async throws(AccountClientError) -> [ContactRecordsPutResponse.Written]
    {
        let path = collection.path
        let response: ContactRecordsPutResponse = try decode(
            try await guarded("PUT", path, body: try encode(ContactRecordsPut(records: records))), path: path)
        return response.records
    }

    /// `path?after=…&limit=…`; the cursor is opaque, so it is percent-encoded as it came.
    static func paged(_ path: String, after cursor: String?, limit: Int) -> String {
        var query = "limit=\(limit)"
        if let cursor {
            let encoded = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
            query += "&after=\(encoded)"
        }
        return path + "?" + query
    }
}
