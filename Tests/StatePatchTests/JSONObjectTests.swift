import Testing

@testable import StatePatch

@Test func membersStayInByteOrderWhateverTheInsertionOrder() {
  var object = JSONObject()
  for key in ["z", "é", "a", "B", ""] { object[key] = .string(key) }
  #expect(object.members.map(\.key) == ["", "B", "a", "z", "é"])
}

@Test func updateAndRemoveReturnTheOldValue() {
  var object = JSONObject([(key: "a", value: 1)])
  #expect(object.updateValue(2, forKey: "a") == 1)
  #expect(object.updateValue(3, forKey: "b") == nil)
  #expect(object.removeValue(forKey: "a") == 2)
  #expect(object.removeValue(forKey: "a") == nil)
  #expect(object.contains(key: "b"))
  #expect(!object.contains(key: "a"))
  #expect(object.count == 1)
}

@Test func settingNilRemovesAMember() {
  var object = JSONObject([(key: "a", value: 1), (key: "b", value: 2)])
  object["a"] = nil
  #expect(object.members.map(\.key) == ["b"])
}

@Test func keysAreFoundByBytes() {
  var object = JSONObject()
  object["\u{E9}"] = 1
  object["e\u{301}"] = 2
  #expect(object.count == 2)
  #expect(object["\u{E9}"] == 1)
  #expect(object["e\u{301}"] == 2)
}

@Test func integersOfAnyWidthPickTheirKind() {
  #expect(JSONValue(UInt8(7)) == .int(7))
  #expect(JSONValue(UInt64.max) == .uint(.max))
  #expect(JSONValue(Int64.min) == .int(.min))
}

@Test func depthCountsNestedContainers() {
  #expect(JSONValue.int(1).depth == 0)
  #expect(([] as JSONValue).depth == 1)
  #expect((["a": [1, [2]], "b": 3] as JSONValue).depth == 3)
}
