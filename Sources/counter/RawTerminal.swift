import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard input in raw mode (no line buffering, no echo; Ctrl-C still sends SIGINT),
/// restored on ``restore()`` from any thread, once.
final class RawTerminal: Sendable {
  private let original: Mutex<termios?>

  /// Switches standard input to raw mode; `nil` when standard input is not a terminal.
  init?() {
    guard isatty(STDIN_FILENO) == 1 else { return nil }
    var settings = termios()
    guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return nil }
    original = Mutex(settings)
    var raw = settings
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &raw.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
  }

  /// Reads one key; `nil` at the end of input.
  func readKey() -> UInt8? {
    var byte: UInt8 = 0
    while true {
      let count = read(STDIN_FILENO, &byte, 1)
      if count == 1 { return byte }
      if count < 0, errno == EINTR { continue }
      return nil
    }
  }

  /// Puts the terminal back as it was; later calls do nothing.
  func restore() {
    guard
      var settings = original.withLock({ saved in
        defer { saved = nil }; return saved
      })
    else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
  }
}

/// Writes `text` to standard output at once, unbuffered.
func writeOut(_ text: String) {
  _ = text.utf8CString.withUnsafeBufferPointer { bytes in
    write(STDOUT_FILENO, bytes.baseAddress, bytes.count - 1)
  }
}
