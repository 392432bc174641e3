// libFuzzer target for the JSON parser and canonical serializer, built by `scripts/fuzz` with
// `swiftc -sanitize=fuzzer,address` together with the StatePatch sources (not by SwiftPM).
//
// For every input: parsing must not crash; when it succeeds, the canonical bytes must parse back
// to an equal value whose canonical bytes are the same, and the hash must agree.

@_cdecl("LLVMFuzzerTestOneInput")
public func parserFuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let value = try? JSONValue(parsing: bytes, maximumDepth: 64) else { return 0 }
  let canonical = value.canonicalBytes()
  guard let again = try? JSONValue(parsing: canonical, maximumDepth: 64) else {
    fatalError("canonical bytes do not parse: \(String(decoding: canonical, as: UTF8.self))")
  }
  guard again == value else { fatalError("canonical round trip changed the value") }
  guard again.canonicalBytes() == canonical else { fatalError("canonical bytes are not stable") }
  guard again.canonicalHash() == value.canonicalHash() else { fatalError("hash differs") }
  return 0
}
