import MicroHTTP
import Testing

/// The wire format's line ends are CRLF, LF and CR only (WHATWG HTML, "event stream
/// interpretation"); a browser keeps every other separator inside the line.
@Suite struct ServerSentEventTests {
  /// The data a browser dispatches for `encoded`, which must end its lines with LF only: the
  /// values of the `data:` lines joined with LF.
  func receivedData(_ encoded: String) -> String {
    #expect(!encoded.unicodeScalars.contains("\r"))
    return encoded.unicodeScalars.split(separator: "\n")
      .map(String.init)
      .filter { $0.hasPrefix("data: ") }
      .map { $0.dropFirst("data: ".count) }
      .joined(separator: "\n")
  }

  @Test func encodesEventsInTheWireFormat() {
    let event = ServerSentEvent(id: "7", event: "delta", data: "one\ntwo", retry: 1500)
    #expect(event.encoded == "id: 7\nevent: delta\nretry: 1500\ndata: one\ndata: two\n\n")
    #expect(ServerSentEvent(data: "").encoded == "data: \n\n")
  }

  @Test(arguments: ["\u{2028}", "\u{2029}", "\u{85}"])
  func unicodeSeparatorsStayInsideOneDataLine(separator: String) {
    #expect(ServerSentEvent(data: "a\(separator)b").encoded == "data: a\(separator)b\n\n")
  }

  @Test func crlfCrAndLfEachEndADataLine() {
    #expect(
      ServerSentEvent(data: "a\r\nb\rc\nd").encoded == "data: a\ndata: b\ndata: c\ndata: d\n\n")
    #expect(ServerSentEvent(data: "a\n\rb").encoded == "data: a\ndata: \ndata: b\n\n")
    #expect(ServerSentEvent(data: "\r\n").encoded == "data: \ndata: \n\n")
  }

  @Test func dataRoundTripsWithLineEndsAsLF() {
    let cases = [
      ("{\"text\":\"a\u{2028}b\u{2029}c\u{85}d\"}", "{\"text\":\"a\u{2028}b\u{2029}c\u{85}d\"}"),
      ("one\ntwo\n", "one\ntwo\n"),
      ("one\r\ntwo\rthree", "one\ntwo\nthree"),
      ("", ""),
    ]
    for (data, received) in cases {
      #expect(receivedData(ServerSentEvent(data: data).encoded) == received)
    }
  }

  @Test func idAndEventMayHoldUnicodeSeparators() {
    let event = ServerSentEvent(id: "1\u{2028}2", event: "a\u{85}b", data: "x")
    #expect(event.encoded == "id: 1\u{2028}2\nevent: a\u{85}b\ndata: x\n\n")
  }

  @Test(arguments: ["a\nb", "a\rb", "a\r\nb"])
  func lineEndInIdOrEventTraps(value: String) async {
    await #expect(processExitsWith: .failure) { [value] in
      _ = ServerSentEvent(id: value, data: "")
    }
    await #expect(processExitsWith: .failure) { [value] in
      _ = ServerSentEvent(event: value, data: "")
    }
    await #expect(processExitsWith: .failure) { [value] in
      var event = ServerSentEvent(data: "")
      event.id = value
    }
    await #expect(processExitsWith: .failure) { [value] in
      var event = ServerSentEvent(data: "")
      event.event = value
    }
  }
}
