import CommandLineKit
import TandemSync

/// `tandem keygen --name NAME --out DIR`: a new CURVE key pair, as `NAME.key` (the public key,
/// to hand to the leader's operator) and `NAME.secret` (the pair, mode 0600).
let keygenCommand = Command(
  name: "keygen",
  summary: "Make a CURVE key pair for a leader, a follower or an operator's tool",
  usage: "--name NAME --out DIR\n\n"
    + "  --name NAME  the key's name: 1 to 64 letters, digits, '.', '_' or '-'; the leader\n"
    + "               logs it, journals it with every action the key sends, and binds the\n"
    + "               client ids the key uses to it\n"
    + "  --out DIR    where to write NAME.key (the public key, mode 0644: give it to the\n"
    + "               leader's operator, or to followers for a leader's key) and\n"
    + "               NAME.secret (the key pair, mode 0600: --key of the process); an\n"
    + "               existing file is never replaced\n\n"
    + "Exit status:\n  0   the key pair was written\n  1   a file could not be written\n"
    + "  64  the command was called wrongly",
  run: { words in
    var arguments = try CommandLineArguments(words)
    let name = try arguments.required("name")
    let directory = try arguments.required("out")
    try arguments.finish()
    guard KeyFile.isValidName(name) else {
      throw UsageError("--name '\(name)' is not 1 to 64 letters, digits, '.', '_' or '-'")
    }
    let pair = try KeyFile.generate(name: name)
    try KeyStore.createDirectory(directory)
    let secret = "\(directory)/\(name).secret"
    let publicFile = "\(directory)/\(name).key"
    try pair.write(to: secret)
    try pair.publicPart.write(to: publicFile)
    try writeLine("wrote \(publicFile) (public) and \(secret) (secret, mode 0600)")
    try writeLine("public key: \(pair.publicKey.z85)")
  }
)
