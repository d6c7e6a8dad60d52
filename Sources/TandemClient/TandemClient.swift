// The umbrella of the client libraries (issue 46 item 2): one import for the CLI and for an app
// that wants all of them. An app that needs less links the feature modules it uses.
@_exported public import TandemAccounts
@_exported public import TandemMessaging
@_exported public import TandemProfile
@_exported public import TandemSync
@_exported public import TandemWallet
