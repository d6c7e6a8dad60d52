public import TandemWallet

extension Messenger {
    /// Whether payments and balances exist: the profile talks to the Kaspa network (`tandem kaspa
    /// connect`). A relay profile has neither.
    public nonisolated var isOnKaspa: Bool { transport is KaspaMessageTransport }

    /// The wallet's balance from its node (every address it holds funds on); nil for a relay
    /// profile.
    public func walletBalance() async throws -> WalletBalance? {
        guard let kaspa = transport as? KaspaMessageTransport else { return nil }
        do { return try await kaspa.wallet.refresh() } catch { throw MessagingError.wallet(error) }
    }
}
