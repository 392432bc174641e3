/// ReSwift's marker protocol for app states, kept so ReSwift code ports unchanged.
///
/// Tandem requires nothing of a state type beyond `Sendable` (a store's state crosses threads),
/// so conforming is optional: `struct AppState: StateType { ... }` compiles, and so does the same
/// struct without the conformance.
public protocol StateType {}
