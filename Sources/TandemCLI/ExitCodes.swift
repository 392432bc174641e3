/// The exit statuses of the `tandem` commands, as their help lists them.
public enum ExitCodes {
  /// The help section listing every status a command that talks to a leader can end with.
  public static let help = """
    Exit status:
      0   success
      1   an unexpected failure (the message says which)
      64  the command was called wrongly (see the usage above)
      65  the leader rejected the action (dispatch)
      66  nothing at the --path in the leader's state (snapshot)
      69  the leader did not answer in time, the endpoint is unreachable, or (watch
          --exit-on-loss) the leader was lost or restarted with a new history
      74  the output could not be written (e.g. a full disk); dispatch: the action was
          applied at the sequence the message names
      75  (stats) the leader is degraded: its journal refuses commits; the message shows
          the last error
      76  the leader answered but refused the request or spoke an unexpected protocol
          (watch: the leader refused the follower when it rejoined)
      77  the leader refused the CURVE keys (--key, --leader-key), or the key's role does
          not allow the request (dispatch needs write, stats admin)
    """
}
