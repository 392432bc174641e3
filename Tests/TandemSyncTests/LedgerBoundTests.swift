import Tandem
import Testing

@testable import TandemJournal
@testable import TandemProtocol
@testable import TandemSync

@Suite("The leader's ledger is bounded", .serialized)
struct LedgerBoundTests {
  /// An action #1 under `client` with a tag no type is registered under: rejected, and with no
  /// action applied the leader's sequence stays where it is.
  func rejectedAction(of client: String) -> ControlRequest {
    .dispatch(ForwardedAction(client: client, number: 1, tag: "no.such.tag", payload: []))
  }

  @Test func aPeerMakingUpClientIDsForRejectedActionsCannotGrowTheLedgerPastItsLimit()
    async throws
  {
    let directory = try LeaderDirectory()
    let path = directory.journal
    let leader = try await makeLeader {
      $0.journalPath = path
      $0.maximumLedgerClients = 4
    }
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    let increment = ForwardedAction(
      client: "kept", number: 1, tag: "test.increment", payload: Array(#"{"by":1}"#.utf8))
    guard case .ack = try client.request(.dispatch(increment)) else {
      Issue.record("expected kept's action to be applied")
      return
    }
    let sequence = leader.sequence
    for index in 0..<20 {
      guard
        case .reject(_, 1, let rejection) = try client.request(rejectedAction(of: "id-\(index)"))
      else {
        Issue.record("expected a rejection")
        return
      }
      #expect(rejection.code == .unknownTag)
    }
    // Rejections do not advance the sequence: no idle limit would ever forget these ids.
    #expect(leader.sequence == sequence)
    func lastNumber(of id: String) throws -> UInt64? {
      let reply = try client.request(
        .hello(version: ControlRequest.version, client: id, fingerprint: leader.fingerprint))
      guard case .welcome(_, _, let lastNumber, _, _, _, _, _, _) = reply else { return nil }
      return lastNumber
    }
    // The ids with only rejections went first, the oldest first; the client whose action was
    // applied stays.
    #expect(try lastNumber(of: "kept") == 1)
    #expect(try lastNumber(of: "id-0") == 0)
    #expect(try lastNumber(of: "id-16") == 0)
    #expect(try lastNumber(of: "id-19") == 1)
    await leader.stop()
    // The journal forgot them too: a restarted leader does not bring them back.
    let journal = try Journal(path: path, configuration: .init())
    defer { journal.close() }
    let ledger = try journal.recover().ledger
    #expect(ledger.entries.count == 4)
    // The HELLOs that asked for the last numbers took ledger entries of their own (a HELLO
    // records which process owns its client id): id-0's and id-16's pushed out id-17 and id-18,
    // the oldest of the ids with only rejections.
    #expect(Set(ledger.entries.keys) == ["kept", "id-0", "id-16", "id-19"])
  }
}
