/// The OpenAPI 3.1 description of every route, served at `/openapi.json`: the resource file
/// `Resources/openapi.json`, embedded in the binary by SwiftPM (`.embedInCode`), so `tandem` stays
/// one file and the document is served exactly as written. Tests check that it is a valid
/// OpenAPI 3.1 document (OpenAPIKit) and that its operations and the router's routes are the same set.
enum OpenAPIDocument {
    static var bytes: [UInt8] { PackageResources.openapi_json }
}
