// libFuzzer target for JSON Patch reading and application, built by `scripts/fuzz` with
// `swiftc -sanitize=fuzzer,address` together with the StatePatch sources (not by SwiftPM).
//
// An input is a document's JSON, a NUL byte, then a patch's JSON. Reading and applying must not
// crash; a failed application must leave the document exactly as it was; a successful one must
// give a document that serializes and parses back, and that the patch's own JSON round-trips.

@_cdecl("LLVMFuzzerTestOneInput")
public func patchFuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let separator = bytes.firstIndex(of: 0) else { return 0 }
  guard
    let document = try? JSONValue(parsing: bytes[..<separator], maximumDepth: 32),
    let patchJSON = try? JSONValue(parsing: bytes[(separator + 1)...], maximumDepth: 32),
    let patch = try? JSONPatch(json: patchJSON)
  else { return 0 }
  guard (try? JSONPatch(json: patch.json)) == patch else { fatalError("patch JSON round trip") }

  var edited = document
  do {
    try patch.apply(to: &edited, maximumDepth: 32)
  } catch {
    guard edited == document else { fatalError("failed patch changed the document: \(error)") }
    guard edited.canonicalBytes() == document.canonicalBytes() else { fatalError("bytes changed") }
    return 0
  }
  guard edited.depth <= 32 else { fatalError("patch exceeded the depth limit") }
  let canonical = edited.canonicalBytes()
  guard let again = try? JSONValue(parsing: canonical, maximumDepth: 32), again == edited else {
    fatalError("patched document does not round-trip")
  }
  return 0
}
