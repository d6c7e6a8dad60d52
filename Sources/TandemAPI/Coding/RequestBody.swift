/// A request body DTO whose `Field` cases are the one spelling of its member names
/// (issue 10 "one source of truth per schema"): the client's `Encodable` comes from them and the
/// server reads and validates the body by them, so neither side can drift from the other.
public protocol RequestBody: Codable, Sendable, Equatable {
    /// The body's members: the DTO's `CodingKeys`.
    associatedtype Field: CodingKey, CaseIterable, Sendable
}
