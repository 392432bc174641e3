import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Appends every dispatched action of a registered type to a file, one JSON line each, for
/// ``ActionReplay`` to rebuild the state from later: ReSwift-Recorder's role, without UIKit.
///
/// ```swift
/// let recorder = try ActionRecorder(path: "/var/log/app/actions.jsonl", registry: registry)
/// let store = Store(
///   reducer: appReducer, state: AppState(),
///   middleware: [createThunkMiddleware(), recorder.middleware()])
/// ```
///
/// Each line is `{"tag":"bookmark.add","time":1764452400.25,"payload":{"url":"..."}}`: the tag the
/// ``ActionRegistry`` knows the action's type by, the time in seconds since 1970, and the
/// action's JSON. Actions of unregistered types (thunks, ``TandemInit``) are passed on without
/// being recorded.
///
/// The recorder appends to the file (creating it), with one `write` per action, before passing
/// the action on. Put it last in the middleware, so it records what reaches the reducer: a
/// middleware after it could still swallow or change an action. Actions are recorded in the
/// order they pass the recorder; when several threads dispatch at once, two actions can reach the
/// reducer in the other order than they were recorded in (see <doc:Recording>).
///
/// A failure to write does not stop the store: the action is passed on, the failure is kept in
/// ``firstFailure`` and counted in ``failureCount``. A line the failed write left in part (the
/// disk filled up midway, say) is cut off again, so the file ends on a whole line and the
/// actions recorded after the failure replay.
public final class ActionRecorder: Sendable {
  private struct Output {
    var file: POSIXFile?
    var recorded = 0
    var failures = 0
    var firstFailure: ActionRecorderError?
  }

  /// The file's path.
  public let path: String
  /// The registry that tags and encodes the actions.
  public let registry: ActionRegistry
  private let now: @Sendable () -> Date
  private let output: Mutex<Output>

  /// Opens (or creates) the file at `path` for appending.
  ///
  /// - Parameters:
  ///   - path: The recording's path.
  ///   - registry: Tags and encodes the actions; actions of other types are not recorded.
  ///   - now: The clock for the `time` of each line.
  /// - Throws: ``ActionRecorderError/cannotOpen(path:errno:)``.
  public init(
    path: String, registry: ActionRegistry, now: @escaping @Sendable () -> Date = { Date() }
  ) throws(ActionRecorderError) {
    let file: POSIXFile
    do {
      file = try POSIXFile.openForAppending(path)
    } catch {
      throw .cannotOpen(path: path, errno: error.errno)
    }
    self.path = path
    self.registry = registry
    self.now = now
    self.output = Mutex(Output(file: file))
  }

  /// A middleware that records each action of a registered type, then passes every action on.
  public func middleware<State>() -> Middleware<State> {
    { [self] _, _ in
      { next in
        { action in
          do throws(ActionRecorderError) {
            try self.record(action)
          } catch {
            self.output.withLock { output in
              output.failures += 1
              if output.firstFailure == nil { output.firstFailure = error }
            }
          }
          next(action)
        }
      }
    }
  }

  /// Appends `action` to the file; returns `false` without writing when its type is not
  /// registered (or the recorder is closed).
  ///
  /// - Throws: ``ActionRecorderError/cannotEncode(_:)`` or
  ///   ``ActionRecorderError/cannotWrite(path:errno:)``.
  @discardableResult
  public func record(_ action: any Action) throws(ActionRecorderError) -> Bool {
    guard registry.tag(of: action) != nil else { return false }
    let encoded: (tag: String, payload: [UInt8])
    do {
      encoded = try registry.encode(action)
    } catch {
      throw .cannotEncode(error)
    }
    let line = RecordingLine.encode(tag: encoded.tag, payload: encoded.payload, time: now())
    let result: Result<Bool, SystemCallError> = output.withLock { output in
      guard let file = output.file else { return .success(false) }
      do throws(SystemCallError) {
        try file.write(line)
        output.recorded += 1
        return .success(true)
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let written): return written
    case .failure(let error): throw .cannotWrite(path: path, errno: error.errno)
    }
  }

  /// How many actions have been written.
  public var recordedCount: Int {
    output.withLock { $0.recorded }
  }

  /// How many actions the middleware failed to record.
  public var failureCount: Int {
    output.withLock { $0.failures }
  }

  /// The first failure of the middleware, if any.
  public var firstFailure: ActionRecorderError? {
    output.withLock { $0.firstFailure }
  }

  /// Closes the file; actions dispatched afterwards are passed on without being recorded.
  /// Releasing the recorder closes it too.
  public func close() {
    output.withLock { output in
      output.file?.close()
      output.file = nil
    }
  }
}
