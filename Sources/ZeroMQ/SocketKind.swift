import CZeroMQ

/// The kind of a socket, fixed when it is created: which messaging pattern it takes part in.
public enum SocketKind: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// `ZMQ_PUB`: sends every message to all subscribers whose subscription matches; drops at
  /// the high-water mark.
  case pub
  /// `ZMQ_SUB`: receives the messages of the publishers it subscribed to.
  case sub
  /// `ZMQ_XPUB`: a publisher that also receives its subscribers' (un)subscription messages.
  case xpub
  /// `ZMQ_XSUB`: a subscriber that sends its subscriptions as messages.
  case xsub
  /// `ZMQ_ROUTER`: receives each message prefixed with the sender's routing id, and routes
  /// what it sends by the routing id in the first frame.
  case router
  /// `ZMQ_DEALER`: load-balances outgoing messages and fair-queues incoming ones, no envelope.
  case dealer
  /// `ZMQ_PUSH`: the sending end of a pipeline.
  case push
  /// `ZMQ_PULL`: the receiving end of a pipeline.
  case pull
  /// `ZMQ_PAIR`: exactly one peer, both directions.
  case pair
  /// `ZMQ_REQ`: strict send, receive, send... client.
  case req
  /// `ZMQ_REP`: strict receive, send, receive... server.
  case rep

  /// The libzmq constant.
  @usableFromInline var rawValue: Int32 {
    switch self {
    case .pub: ZMQ_PUB
    case .sub: ZMQ_SUB
    case .xpub: ZMQ_XPUB
    case .xsub: ZMQ_XSUB
    case .router: ZMQ_ROUTER
    case .dealer: ZMQ_DEALER
    case .push: ZMQ_PUSH
    case .pull: ZMQ_PULL
    case .pair: ZMQ_PAIR
    case .req: ZMQ_REQ
    case .rep: ZMQ_REP
    }
  }

  /// The libzmq name without its prefix, upper case: `PUB`, `ROUTER`...
  public var description: String {
    switch self {
    case .pub: "PUB"
    case .sub: "SUB"
    case .xpub: "XPUB"
    case .xsub: "XSUB"
    case .router: "ROUTER"
    case .dealer: "DEALER"
    case .push: "PUSH"
    case .pull: "PULL"
    case .pair: "PAIR"
    case .req: "REQ"
    case .rep: "REP"
    }
  }
}
