import Foundation
import MicroHTTP
import Synchronization
import Tandem
import TandemSync

/// The browser's web front end: a follower of the leader serving a page, a JSON API and a
/// Server-Sent Events stream through MicroHTTP's `HTTPServer`.
///
/// | method and path | answer |
/// |---|---|
/// | `GET /`, `/bookmarks`, `/{owner}`, `/{owner}/{name}` | the page, which opens the screen its path names (see ``Route/Screen/init(path:)``); another path is a 404 page |
/// | `GET /assets/page.js`, `/assets/page.css` | the page's script and style (nothing is loaded from elsewhere) |
/// | `GET /api/view?session=S` | session `S`'s ``BrowserView`` as JSON |
/// | `GET /api/events?session=S` | `text/event-stream`: a `view` event with the JSON view at once and after every change of it |
/// | `POST /api/actions` | `{"tag": T, "payload": {...}}`: forwards the action (tags in ``browserUserTags``) and answers `{"sequence": N}` once the replica shows it |
/// | `GET /api/status` | the connection and the follower's statistics |
/// | `GET /api/auth/signin`, `/api/auth/callback`, `POST /api/auth/signout` | GitHub's OAuth web flow (see ``init(follower:server:actionTimeout:sessionGrace:signIn:credentials:)``) |
///
/// The page and its assets carry a Content-Security-Policy that runs only the page's own script
/// (`script-src 'self'`), so nothing a README or another text from GitHub holds can run. An
/// unknown path under `/api/` is a JSON 404.
///
/// A body that is not JSON, a tag that is unknown or belongs to workers, or a payload that does
/// not decode is answered 400 with `{"error": message}`; an action the leader rejects 422; an
/// action not acknowledged within ``actionTimeout`` 504 (it stays queued and is applied once
/// the leader is back).
///
/// ```swift
/// let web = try WebFrontEnd(follower: follower, server: HTTPServer.Configuration(port: 8080))
/// print(web.url)
/// ```
public final class WebFrontEnd: Sendable {
  /// The replica the front end shows and forwards through.
  public let follower: Follower<BrowserState>
  /// How long `POST /api/actions` waits for the replica to show an action.
  public let actionTimeout: Duration
  private let server: Mutex<HTTPServer?>
  let hub: EventHub
  private let sweeper: SessionSweeper
  private let feed: Task<Void, Never>
  /// Shows the follower's connection on the page's badge (see ``BrowserView/Connection``);
  /// ends when the front end stops, or after showing the follower stopped.
  let connectionFeed: Task<Void, Never>
  /// The bound base URL, such as `http://127.0.0.1:8080`.
  public let url: String
  /// The front end's metrics, for Prometheus: its requests by status and their durations, and
  /// its follower's (see ``MetricsRegistry``).
  public let metrics = MetricsRegistry()

  /// Starts serving `follower`'s state, with its connection to the leader on the page's badge
  /// (see ``BrowserView/Connection``). A session that has had no event stream here for
  /// `sessionGrace` is ended: one whose page went away without the `pagehide` beacon, counted
  /// from its last stream's end, and one a client navigated through `POST /api/actions` without
  /// opening a stream (a script), counted from that navigation. A session's requests must
  /// therefore reach one front end (a page's do: it talks to the origin it came from); the
  /// state's bound, ``BrowserState/maximumSessions``, holds whatever the front ends do.
  ///
  /// With `signIn` (and the `credentials` to keep sign-ins in), each browser signs in with
  /// GitHub's OAuth web flow and sees its own user's repositories, private ones included, and
  /// bookmarks; without, everyone shares the service's own token (account `""`).
  public init(
    follower: Follower<BrowserState>,
    server configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    actionTimeout: Duration = .seconds(10), sessionGrace: Duration = .seconds(60),
    signIn oauth: OAuthConfiguration? = nil, credentials: CredentialStore? = nil
  ) throws(HTTPServerError) {
    precondition(
      oauth == nil || credentials != nil, "WebFrontEnd: OAuth sign-in needs a CredentialStore")
    self.follower = follower
    self.actionTimeout = actionTimeout
    let sweeper = SessionSweeper(follower: follower, grace: sessionGrace)
    self.sweeper = sweeper
    let hub = EventHub { session, hub in sweeper.scheduleCheck(of: session, on: hub) }
    self.hub = hub
    let feed = Task { [follower] in
      for await state in follower.store.states { hub.update(state: state) }
    }
    self.feed = feed
    let handler = WebRoutes(
      follower: follower, hub: hub, sweeper: sweeper, actionTimeout: actionTimeout,
      signIn: SignInRoutes(oauth: oauth, credentials: credentials)
    ).handler()
    let server: HTTPServer
    do {
      let counted = WebMetrics()
      metrics.addCollector { counted.families() }
      metrics.addCollector { [follower] in await follower.metrics.families() }
      server = try HTTPServer(
        configuration: configuration, handler: counted.counting(handler))
    } catch {
      // Not serving: nothing is to follow the follower's states for.
      feed.cancel()
      throw error
    }
    self.server = Mutex(server)
    url = server.url
    connectionFeed = Task { [follower] in
      await BrowserView.Connection.follow(follower) { hub.update(connection: $0) }
    }
  }

  /// The bound port.
  public var port: Int { server.withLock { $0?.port ?? 0 } }

  /// The connection as the page shows it.
  public var connection: BrowserView.Connection { hub.connection }

  /// Stops serving: ends the event streams and the server, and the tasks that feed them. The
  /// follower is the caller's to stop.
  public func stop() {
    feed.cancel()
    connectionFeed.cancel()
    hub.finishAll()
    sweeper.stop()
    let server = self.server.withLock { server in
      defer { server = nil }
      return server
    }
    server?.stop()
  }

  deinit {
    stop()
  }
}
