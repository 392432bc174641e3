import Testing

@testable import TandemProtocol

/// Which leader endpoint a follower joins next.
@Suite("Leader endpoints")
struct LeaderEndpointsTests {
  @Test func goesRoundTheListOnSilence() {
    var leaders = LeaderEndpoints(["a", "b", "c"])
    #expect(leaders.current == "a")
    leaders.advance()
    #expect(leaders.current == "b")
    leaders.advance()
    leaders.advance()
    #expect(leaders.current == "a")
  }

  @Test func followsARedirectEvenOutsideTheList() {
    var leaders = LeaderEndpoints(["a", "b"])
    #expect(leaders.redirected(to: "z") == true)
    #expect(leaders.current == "z")
    // The redirected one went silent: the next endpoint given.
    leaders.advance()
    #expect(leaders.current == "b")
  }

  @Test func aRedirectNamingNoLeaderTriesTheStandbyAgainThenMovesOn() {
    var leaders = LeaderEndpoints(["a", "b"])
    for _ in 0..<LeaderEndpoints.maximumRedirects {
      #expect(leaders.redirected(to: "") == false)
      #expect(leaders.current == "a")
    }
    #expect(leaders.redirected(to: "") == false)
    #expect(leaders.current == "b")
  }

  @Test func aRedirectNamingTheStandbyItselfNamesNoLeader() {
    var leaders = LeaderEndpoints(["a", "b"])
    // A restarted standby at "a" read a lease its former process at "a" still held.
    #expect(leaders.redirected(to: "a") == false)
    #expect(leaders.current == "a")
    #expect(leaders.redirected(to: "b") == true)
    #expect(leaders.redirected(to: "b") == false)
    #expect(leaders.current == "b")
  }

  @Test func boundsRedirectsInARowUntilAJoin() {
    var leaders = LeaderEndpoints(["a", "b"])
    for name in ["z", "y", "z"].prefix(LeaderEndpoints.maximumRedirects) {
      #expect(leaders.redirected(to: name) == true)
    }
    #expect(leaders.redirected(to: "y") == false)
    #expect(leaders.current == "b")
    leaders.joined()
    #expect(leaders.redirected(to: "a") == true)
  }
}
