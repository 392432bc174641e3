import StatePatch
import Tandem
import TandemProtocol

/// Versions of one application's state and actions, for the compatibility rules.
enum SchemaVersions {
  struct StateV1: Codable { var counter: Int }

  /// V1 with a defaulted field and an optional one.
  struct StateV2: Codable {
    var counter: Int
    var hits: Int
    var note: String?

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      counter = try container.decode(Int.self, forKey: .counter)
      hits = try container.decodeIfPresent(Int.self, forKey: .hits) ?? 0
      note = try container.decodeIfPresent(String.self, forKey: .note)
    }
  }

  /// V1 with the counter's type changed.
  struct StateV3: Codable { var counter: String }

  /// V1 with a required field added without a default.
  struct StateRequiredAdded: Codable {
    var counter: Int
    var total: Int
  }

  /// V1's counter may be absent.
  struct StateOptionalCounter: Codable { var counter: Int? }

  /// V1's counter as a narrower integer, and as a wider one.
  struct StateNarrow: Codable { var counter: Int8 }
  struct StateWide: Codable { var counter: Int64 }
  struct StateDouble: Codable { var counter: Double }

  enum ModeV1: String, Codable, CaseIterable { case on, off }
  enum ModeV2: String, Codable, CaseIterable { case on, off, paused }
  struct ModalV1: Codable { var mode: ModeV1 }
  struct ModalV2: Codable { var mode: ModeV2 }

  struct Increase: Action, Codable {}
  struct SetCounter: Action, Codable {
    var value: Int
    var by: String
  }
  /// `SetCounter` whose decoder no longer needs `by`.
  struct SetCounterWithoutBy: Action, Codable { var value: Int }
  /// `SetCounter` with a required field added.
  struct SetCounterWithReason: Action, Codable {
    var value: Int
    var by: String
    var reason: String
  }
  struct Reset: Action, Codable {}

  static func schema<State: Codable>(
    _ state: State.Type, _ registry: ActionRegistry = v1Actions, version: String = "1"
  ) -> ApplicationSchema {
    ApplicationSchema(state, registry: registry, version: version)
  }

  static let v1Actions = ActionRegistry()
    .registering(Increase.self, tag: "increase")
    .registering(SetCounter.self, tag: "set")

  static let v2Actions = v1Actions.registering(Reset.self, tag: "reset")
}
