/// A middleware of an ``EventStore``: sees every event before the reducers, and may pass it on,
/// change it, consume others or swallow it. ``Middleware`` with typed events.
///
/// ```swift
/// let logger: EventMiddleware<Int, ButtonEvent> = { consume, getState in
///   { next in
///     { event in
///       print("event", event, "at", getState())
///       next(event)  // omit to swallow the event
///     }
///   }
/// }
/// ```
///
/// `consume` sends an event through the whole chain again (from the first middleware); `next`
/// passes it to the next middleware, then the reducers. Middleware runs on the thread that
/// consumes the event, never while a lock is held.
public typealias EventMiddleware<State, Event> =
  @Sendable (
    _ consume: @escaping @Sendable (Event) -> Void, _ getState: @escaping @Sendable () -> State
  ) -> @Sendable (_ next: @escaping @Sendable (Event) -> Void) -> @Sendable (Event) -> Void

/// The store middleware that runs `middleware` on the events it sees (other actions pass by).
func storeMiddleware<State: Sendable, Event: Sendable>(
  _ middleware: @escaping EventMiddleware<State, Event>
) -> Middleware<State> {
  { dispatch, getState in
    let consume: @Sendable (Event) -> Void = { dispatch(EventAction($0)) }
    let state: @Sendable () -> State = {
      guard let state = getState() else { preconditionFailure("Tandem: an event store's state") }
      return state
    }
    return { next in
      let handle = middleware(consume, state)({ next(EventAction($0)) })
      return { action in
        if let action = action as? EventAction<Event> {
          handle(action.event)
        } else {
          next(action)
        }
      }
    }
  }
}
