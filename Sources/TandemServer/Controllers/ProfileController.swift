import Foundation
import Hummingbird
import KaspaCrypto
import TandemAPI
import TandemBasics
import TandemServerStore

/// `GET/PUT /api/me/profile`: the signed-in user's chat profile (`users` table). The user is
/// always the session's; no route takes a user id, so nobody can read or change another's.
struct ProfileController: Sendable {
    let store: any AccountStore
    let clock: any WallClock

    static let maxDisplayNameLength = ServerLimits.maxNameLength
    static let maxPublicKeys = 16

    func register(on group: RouterGroup<AuthenticatedRequestContext>, table: RouteTable) {
        table.add(group, .get, "profile", fullPath: APIPath.myProfile) { _, context in try await read(context) }
        table.add(group, .put, "profile", fullPath: APIPath.myProfile) { request, context in
            try await update(request, context: context)
        }
    }

    func read(_ context: AuthenticatedRequestContext) async throws -> Response {
        let resolved = context.session
        guard let profile = try await store.profile(userID: AccountID(resolved.user.id)) else {
            throw ServerStoreError.profileMissing(userID: resolved.user.id)
        }
        return try JSONResponse.make(profile)
    }

    func update(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let resolved = context.session
        var fields = try ChatProfileUpdate.fields(of: try await JSONBody.read(request))
        let update = try fields.decode(ChatProfileUpdate.read)
        let (displayName, publicKeys) = (update.displayName, update.publicKeys)
        // Absent: keep; null: clear; string: replace.
        let kaspaAddress: String?? = update.kaspaAddress.map(\.value)

        let userID = AccountID(resolved.user.id)
        guard var profile = try await store.profile(userID: userID) else {
            throw ServerStoreError.profileMissing(userID: userID.rawValue)
        }
        if let displayName {
            let trimmed = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, ServerLimits.fits(trimmed, Self.maxDisplayNameLength) else {
                throw APIFailure(
                    .badRequest, .invalidProfile, "displayName must be 1 to \(Self.maxDisplayNameLength) characters")
            }
            profile.displayName = trimmed
        }
        if let kaspaAddress {
            if let address = kaspaAddress {
                guard (try? KaspaAddress(address)) != nil else {
                    throw APIFailure(.badRequest, .invalidProfile, "kaspaAddress is not a valid Kaspa address")
                }
            }
            profile.kaspaAddress = kaspaAddress
        }
        if let publicKeys {
            guard publicKeys.count <= Self.maxPublicKeys,
                publicKeys.allSatisfy({ ($0.utf8.count == 64 || $0.utf8.count == 66) && Hex.isHex($0) })
            else {
                throw APIFailure(
                    .badRequest, .invalidProfile,
                    "publicKeys must be at most \(Self.maxPublicKeys) keys of 64 or 66 hex characters")
            }
            profile.publicKeys = publicKeys.map { $0.lowercased() }
        }
        profile.updatedAt = clock.now.date
        try await store.updateProfile(profile)
        return try JSONResponse.make(profile)
    }
}
