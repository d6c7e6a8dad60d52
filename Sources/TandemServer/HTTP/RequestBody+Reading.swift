import TandemAPI

/// Request bodies read into their TandemAPI DTOs, each member by its DTO `Field` and in
/// BetterAuth's order (betterauth-api.md §1, §3), so issues come out as zod's did.

extension SignInUsernameRequest {
    /// `username` and `password` required; `rememberMe`, `callbackURL` optional.
    static func read(_ fields: inout BodyFields<Field>) -> Self? {
        let username = fields.string(.username)
        let password = fields.string(.password)
        let rememberMe = fields.optionalBool(.rememberMe)
        let callbackURL = fields.optionalString(.callbackURL)
        guard let username, let password else { return nil }
        return Self(username: username, password: password, rememberMe: rememberMe, callbackURL: callbackURL)
    }
}

extension SignUpEmailRequest {
    /// The sign-up schema after the username hook (§8, §14): `username` is the hook's choice,
    /// which may come from `displayUsername`; it is required only when the hook found none.
    static func read(_ fields: inout BodyFields<Field>, username hooked: String?, callbackURL: String?) -> Self? {
        let name = fields.string(.name)
        let email = fields.string(.email)
        let password = fields.string(.password)
        let image = fields.optionalString(.image)
        let rememberMe = fields.optionalBool(.rememberMe)
        if hooked == nil { _ = fields.string(.username) }
        let displayUsername = fields.optionalString(.displayUsername)
        if let email, !EmailRules.isValid(email) { fields.addIssue(.email, "Invalid email address") }
        fields.cap(.name, name, ServerLimits.maxNameLength)
        fields.cap(.image, image, ServerLimits.maxImageLength)
        fields.cap(.displayUsername, displayUsername, ServerLimits.maxDisplayUsernameLength)
        guard let name, let email, let password, let hooked else { return nil }
        return Self(
            name: name, email: email, password: password, username: hooked, displayUsername: displayUsername,
            image: image, callbackURL: callbackURL, rememberMe: rememberMe)
    }
}

extension ChatProfileUpdate {
    /// Every member optional; `kaspaAddress: null` clears the address.
    static func read(_ fields: inout BodyFields<Field>) -> Self? {
        let displayName = fields.optionalString(.displayName)
        let kaspaAddress: Clearable<String>? =
            switch fields.value(.kaspaAddress) {
            case .none: nil
            case .null?: .clear
            default: fields.optionalString(.kaspaAddress).map { .set($0) }
            }
        let publicKeys = fields.optionalStrings(.publicKeys)
        return Self(displayName: displayName, kaspaAddress: kaspaAddress, publicKeys: publicKeys)
    }
}

extension SignInEmailRequest {
    /// `email` and `password` required (the e-mail's format is checked after, as 400
    /// `INVALID_EMAIL`); `callbackURL`, `rememberMe` optional.
    static func read(_ fields: inout BodyFields<Field>) -> Self? {
        let email = fields.string(.email)
        let password = fields.string(.password)
        let callbackURL = fields.optionalString(.callbackURL)
        let rememberMe = fields.optionalBool(.rememberMe)
        guard let email, let password else { return nil }
        return Self(email: email, password: password, callbackURL: callbackURL, rememberMe: rememberMe)
    }
}

extension ChangePasswordRequest {
    static func read(_ fields: inout BodyFields<Field>) -> Self? {
        let newPassword = fields.string(.newPassword)
        let currentPassword = fields.string(.currentPassword)
        let revoke = fields.optionalBool(.revokeOtherSessions)
        guard let newPassword, let currentPassword else { return nil }
        return Self(newPassword: newPassword, currentPassword: currentPassword, revokeOtherSessions: revoke)
    }
}

extension DeleteUserRequest {
    static func read(_ fields: inout BodyFields<Field>) -> Self? {
        let callbackURL = fields.optionalString(.callbackURL)
        let password = fields.optionalString(.password)
        let token = fields.optionalString(.token)
        return Self(password: password, callbackURL: callbackURL, token: token)
    }
}

extension UpdateUserRequest {
    /// Every member optional; `image: null` clears the image. Caps as on sign-up.
    static func read(_ fields: inout BodyFields<Field>) -> Self? {
        let name = fields.optionalString(.name)
        let image: Clearable<String>? =
            switch fields.value(.image) {
            case .none: nil
            case .null?: .clear
            default: fields.optionalString(.image).map { .set($0) }
            }
        let username = fields.optionalString(.username)
        let displayUsername = fields.optionalString(.displayUsername)
        fields.cap(.name, name, ServerLimits.maxNameLength)
        fields.cap(.image, image?.value, ServerLimits.maxImageLength)
        fields.cap(.displayUsername, displayUsername, ServerLimits.maxDisplayUsernameLength)
        return Self(name: name, image: image, username: username, displayUsername: displayUsername)
    }
}
