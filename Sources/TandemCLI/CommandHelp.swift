/// The summary and usage text of each `tandem` operator command, as `tandem <command> --help`
/// prints them.
public struct CommandHelp: Sendable {
  /// The one-line summary in `tandem --help`.
  public var summary: String
  /// Everything after `Usage: tandem <command> ` in the command's help.
  public var usage: String

  /// `tandem watch`.
  public static let watch = CommandHelp(
    summary: "Stream the leader's deltas (actions with sequence, tag, origin; patch) as applied.",
    usage: """
      --leader ENDPOINT [--path /json/pointer] [--json] [--count N] [--exit-on-loss]

      Joins the leader as a follower and prints each delta as it arrives (a line per action it
      applies, with the name of the CURVE key that sent it when the leader has keys, then its
      operations), until interrupted (Ctrl-C) or --count deltas were printed.
      A jump in sequence (a resync from a snapshot, or deltas applied as the watch began) is
      shown as a line of its own.

      When the leader goes away (it is silent for 2 s, or says it is stopping), standard error
      says so once ("tandem watch: lost the leader at ENDPOINT (...); reconnecting"); the watch
      keeps reconnecting, says "reconnected ... at sequence N" when the leader is back, and
      goes on printing its deltas. A leader restarted with a new history before its silence
      was noticed is reported too ("tandem watch: the leader at ENDPOINT restarted with a new
      history (epoch A -> B, at sequence N)"). With --exit-on-loss either exits with status
      69 instead.

      When the follower stops by itself (the leader it rejoined refused it, e.g. for another
      protocol version), the watch says why on standard error and exits with status 76 (69
      for any other reason).

      Options:
      \(LeaderConnection.help)
        --path POINTER      show only patch operations at, inside or above this JSON pointer
                            (RFC 6901, e.g. /counter); deltas touching nothing there are skipped
        --json              one canonical JSON object per line: {"actions":[{"origin":
                            {"client","key","number"},"sequence","tag"}],"epoch","patch":[...],
                            "sequence"}; a resync is {"epoch","event":"resync","from","sequence"}
        --count N           exit after N deltas
        --exit-on-loss      exit with status 69 when the leader is lost or restarts with a
                            new history, instead of waiting for it or following the new one

      \(ExitCodes.help)
      """)

  /// `tandem snapshot`.
  public static let snapshot = CommandHelp(
    summary: "Print the leader's state, or the part of it at a JSON pointer.",
    usage: """
      --leader ENDPOINT [--path /json/pointer] [--json]

      Asks the leader for a snapshot and prints the value at --path (the whole state by
      default): indented for people, or with --json as one line of canonical JSON (sorted keys,
      no spaces: byte-for-byte comparable between replicas). The epoch and sequence of the
      snapshot go to standard error.

      Options:
      \(LeaderConnection.help)
        --path POINTER      the part of the state to print (RFC 6901, e.g. /counter)
        --json              canonical JSON on one line

      \(ExitCodes.help)
      """)

  /// `tandem dispatch`.
  public static let dispatch = CommandHelp(
    summary: "Send one action to the leader and print the sequence at which it took effect.",
    usage: """
      --leader ENDPOINT --type TAG [--json PAYLOAD]

      Forwards the action registered under TAG with the JSON PAYLOAD, exactly once, and prints
      the sequence the leader acknowledged (a number alone on standard output). A rejection
      (unknown tag, undecodable payload, refused by the application) prints the reason and exits
      with status 65; one of the key's role or tag allow-list (unauthorized) with 77. Without a reply in time (status 69) the leader may still have applied the
      action: each run is a new client, so check the state before sending it again.

      Options:
      \(LeaderConnection.help)
        --type TAG          the action's registered tag, e.g. counter.increment
        --json PAYLOAD      the action as JSON (default {}), e.g. --json '{"text": "hi"}'

      \(ExitCodes.help)
      """)

  /// `tandem stats`.
  public static let stats = CommandHelp(
    summary: "Show the leader's epoch, sequence, backlog, counters and followers with lag.",
    usage: """
      --leader ENDPOINT [--json] [--all] [--max-lag N]

      Prints the leader's statistics: a table for people, or with --json one canonical JSON
      object (epoch, sequence, backlogCount, backlogOldest, counters, followers with client,
      lag and lastSeenMillisecondsAgo, degraded when the journal refuses commits, and for a
      leader with standbys the lease: role, holder, fencingEpoch, millisecondsLeft and the
      standbys with id, control, role and lastSeenMillisecondsAgo).
      Exits 0 when the leader answers and is not degraded: a health check; 75 while its
      journal refuses commits.
      Only connected followers are listed (heard from in the last 1.5 s; a follower pings
      every 500 ms by default), so a follower that stopped drops out within that time.

      Options:
      \(LeaderConnection.help)
        --json              one canonical JSON object
        --all               also the followers not heard from lately (the leader keeps them
                            a minute), and the clients of the leader's ledger (followers and
                            one-off senders such as tandem dispatch, with their last action
                            number and sequence; with --json clients and clientCount)
        --max-lag N         exit with status 1 when a listed follower lags more than N
                            sequences

      \(ExitCodes.help)
      """)

  /// `tandem failover`.
  public static let failover = CommandHelp(
    summary: "Have the active leader hand its lease over to a standby leader, and wait for it.",
    usage: """
      --leader ENDPOINT[,ENDPOINT...] [--timeout-ms N]

      Asks the active leader of standby leaders (leaders sharing a PostgreSQL journal) to
      step down (STEP-DOWN): it commits and answers the batch in flight, gives the lease up
      and becomes a standby, so that a standby takes the lease over at once. Prints which
      leader hands over (its leader id and fencing epoch), then asks the leaders given for
      their statistics until another one serves, and prints e.g.
        handed over from a:41:x (fencing epoch 3) to b:52:y (fencing epoch 4) in 412 ms
      Give every leader's endpoint: the request and the questions go to the first, and a
      standby's REDIRECT leads to the lease holder. Nothing acknowledged is lost and no
      action is applied twice: followers send what is unanswered to the next leader.
      Needs an admin key when the leaders have CURVE keys.

      Options:
      \(LeaderConnection.help)
        --timeout-ms N      how long to wait for another leader to serve, in milliseconds
                            (default 10000); each leader asked is waited for at most 1 s
                            (or --timeout, if shorter)

      Exit status:
        0   handed over: another leader serves
        1   an unexpected failure (the message says which)
        64  the command was called wrongly (see the usage above)
        69  no leader answered, or no other leader took over within --timeout-ms (nothing
            was lost: the old leader stopped acknowledging only after committing and
            answering its batch)
        74  the output could not be written (e.g. a full disk)
        76  the leader has no lease to hand over (it runs without standby leaders, or does
            not hold the lease right now), or spoke an unexpected protocol
        77  the leader refused the CURVE keys (--key, --leader-key), or the key is not an
            admin's
      """)

  /// `tandem raw`.
  public static let raw = CommandHelp(
    summary: "Send raw frames to the leader's control socket and print the reply (debugging).",
    usage: """
      --leader ENDPOINT [--] FRAME...

      Sends one multipart message, one frame per FRAME word, and prints each frame of the reply
      on a line. A word x:HEX is binary (x:0000000000000001 is the 8-byte big-endian 1, x: an
      empty frame); any other word is its UTF-8 text. Printable replies are shown as text,
      others as x:HEX. For example: tandem raw --leader tcp://127.0.0.1:5600 PING cli x:00

      A bare -- ends the options: every word after it is a FRAME, even one that starts with --
      (tandem raw --leader tcp://127.0.0.1:5600 -- --PING is the frame --PING; -- -- is the
      frame --).

      Options:
      \(LeaderConnection.help)

      \(ExitCodes.help)
      """)
}
