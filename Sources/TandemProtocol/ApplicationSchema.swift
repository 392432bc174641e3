import StatePatch
import Tandem

/// What a leader and a follower exchange at `HELLO` and `WELCOME` to decide whether they can
/// share a state: the schema of the state type and of each registered action's payload, as
/// data, and the application's schema version.
///
/// ``SchemaCompatibility`` compares two of them by the rules of <doc:SchemaEvolution>; the JSON
/// form (``json``) is what the frames carry, what `--print-schema` prints and what
/// `tandem schema diff` reads:
///
/// ```json
/// {"actions": {"counter.increase": {"shape": {"object": {}}, "type": "..."}},
///  "state": {"shape": {"object": {"counter": {"required": true, "shape": "Int"}}}, "type": "..."},
///  "tandem-schema": 1, "version": "1"}
/// ```
public struct ApplicationSchema: Sendable, Hashable {
  /// The application's schema version (``SchemaFingerprint``'s `version`): processes of
  /// different versions never share a state, whatever their shapes say.
  public var version: String
  /// The state type's schema.
  public var state: SchemaDescription
  /// Each registered tag's payload schema.
  public var actions: [String: SchemaDescription]

  /// A schema of the given parts.
  public init(version: String, state: SchemaDescription, actions: [String: SchemaDescription]) {
    self.version = version
    self.state = state
    self.actions = actions
  }

  /// The schema of `state` with the actions of `registry`, at `version`.
  public init<State: Codable>(_ state: State.Type, registry: ActionRegistry, version: String) {
    var actions: [String: SchemaDescription] = [:]
    for (tag, type) in registry.registeredTypes {
      actions[tag] = SchemaDescription(of: type)
    }
    self.init(version: version, state: SchemaDescription(of: state), actions: actions)
  }

  /// The format number of ``json``.
  public static let format: Int64 = 1

  /// The schema as JSON.
  public var json: JSONValue {
    var actions = JSONObject()
    for (tag, description) in self.actions { actions[tag] = description.json }
    return .object(
      JSONObject([
        (key: "tandem-schema", value: .int(Self.format)), (key: "version", value: .string(version)),
        (key: "state", value: state.json), (key: "actions", value: .object(actions)),
      ]))
  }

  /// The schema as the canonical JSON bytes the frames carry.
  public var frame: Frame { Frame(json.canonicalBytes()) }

  /// The schema that ``json`` wrote.
  ///
  /// - Throws: ``SchemaDescriptionError`` naming the place that is not a schema.
  public init(json: JSONValue) throws(SchemaDescriptionError) {
    guard case .object(let object) = json, object["tandem-schema"] == .int(Self.format),
      case .string(let version)? = object["version"], let state = object["state"],
      case .object(let actions)? = object["actions"]
    else {
      throw SchemaDescriptionError(
        pointer: .root,
        detail: "not a Tandem application schema of format \(Self.format) "
          + "(\"tandem-schema\", \"version\", \"state\", \"actions\")")
    }
    func described(
      _ json: JSONValue, at token: [String]
    ) throws(SchemaDescriptionError)
      -> SchemaDescription
    {
      do {
        return try SchemaDescription(json: json)
      } catch {
        throw SchemaDescriptionError(
          pointer: JSONPointer(tokens: token + error.pointer.tokens), detail: error.detail)
      }
    }
    var byTag: [String: SchemaDescription] = [:]
    for (tag, description) in actions.members {
      byTag[tag] = try described(description, at: ["actions", tag])
    }
    self.init(version: version, state: try described(state, at: ["state"]), actions: byTag)
  }

  /// The schema in `bytes` (the JSON of a frame, a file).
  ///
  /// - Throws: ``SchemaDescriptionError`` when the bytes are not JSON or not a schema.
  public init(bytes: [UInt8]) throws(SchemaDescriptionError) {
    let json: JSONValue
    do {
      json = try JSONParser().parse(bytes)
    } catch {
      throw SchemaDescriptionError(pointer: .root, detail: "not JSON: \(error)")
    }
    try self.init(json: json)
  }
}
