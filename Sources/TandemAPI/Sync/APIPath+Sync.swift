extension APIPath {
    /// `GET`/`POST /api/me/keys`: the account's device keys (issue 12 item 1).
    public static let myKeys = "/api/me/keys"
    /// `DELETE /api/me/keys/{publicKey}`.
    public static func myKey(_ publicKey: String) -> String { myKeys + "/" + publicKey }
    /// `POST`/`GET /api/redo/nodes` (issue 12 item 2).
    public static let redoNodes = "/api/redo/nodes"
    /// `POST /api/redo/tasks/{taskId}/share`.
    public static func shareTask(_ taskID: String) -> String { "/api/redo/tasks/\(taskID)/share" }
    /// `GET /api/redo/invitations` (issue 50 item 6): shares waiting for this account's answer.
    public static let taskInvitations = "/api/redo/invitations"
    /// `POST /api/redo/invitations/{taskId}/accept`.
    public static func acceptInvitation(_ taskID: String) -> String { "\(taskInvitations)/\(taskID)/accept" }
    /// `POST /api/redo/invitations/{taskId}/decline`.
    public static func declineInvitation(_ taskID: String) -> String { "\(taskInvitations)/\(taskID)/decline" }
    /// `GET`/`PUT /api/contacts/records` (issue 12 item 3).
    public static let contactRecords = "/api/contacts/records"
    /// `GET`/`PUT /api/tasks/presets` (issue 27 item 3): saved task filters, sealed like contact
    /// records and carried in the same wire form (`ContactRecordsPut`, `ContactRecordPage`).
    public static let taskPresets = "/api/tasks/presets"
    /// `GET`/`PUT /api/chat/history` (issue 48 item 1): a person's chat history, one sealed
    /// record per message and per deleted conversation, in the same wire form.
    public static let chatHistory = "/api/chat/history"
}
