import CommandLineKit
import StatePatch
import TandemCLI
import TandemProtocol
import TandemSync
import ZeroMQ

/// `tandem keys list|add|revoke --store DIR`: the key store of the client keys a leader accepts.
let keysCommands = CommandGroup(
  name: "tandem keys",
  summary: "List, add and revoke the client keys a leader accepts (its key store).",
  commands: [keysListCommand, keysAddCommand, keysRevokeCommand, keysReloadCommand],
  exitStatuses: """
    Exit status:
      0   success
      1   the store or a key file cannot be read or written (the message names the file)
      64  the command was called wrongly (see the usage above)
      69  reload: the leader did not answer in time
      77  reload: the leader refused the keys given, or they are not an admin key's
    """
)

let keysCommand = Command(
  name: "keys", summary: "List, add, revoke or reload the client keys a leader accepts",
  subcommands: keysCommands)

/// The `--store DIR` option.
private func storePath(_ arguments: inout CommandLineArguments) throws(UsageError) -> String {
  let path = try arguments.required("store")
  guard !path.isEmpty else { throw UsageError("--store is empty: give the key store directory") }
  return path
}

let keysListCommand = Command(
  name: "list", summary: "List the keys of a key store with their roles and tags",
  usage: "--store DIR [--json]",
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["json"])
    let path = try storePath(&arguments)
    let json = arguments.flag("json")
    try arguments.finish()
    let store = try KeyStore.load(path)
    for entry in store.entries {
      let tags = entry.tags.map { $0.sorted().joined(separator: ",") }
      if json {
        var object: [String: JSONValue] = [
          "name": .string(entry.name), "publicKey": .string(entry.publicKey.z85),
          "role": .string(entry.role?.rawValue ?? ""),
        ]
        if let tags = entry.tags { object["tags"] = .array(tags.sorted().map { .string($0) }) }
        try writeLine(
          String(
            decoding: JSONValue.object(JSONObject(object.map { (key: $0.key, value: $0.value) }))
              .canonicalBytes(), as: UTF8.self))
      } else {
        try writeLine(
          "\(entry.name)  \(entry.role?.rawValue ?? "-")  \(entry.publicKey.z85)"
            + (tags.map { "  tags: \($0)" } ?? ""))
      }
    }
    if !json { printError("\(store.entries.count) keys in \(path)") }
  })

let keysAddCommand = Command(
  name: "add", summary: "Authorize a public key with a role (read, write, admin)",
  usage: "--store DIR --role read|write|admin [--tags TAG,...] FILE\n"
    + "       --store DIR --role ROLE [--tags TAG,...] --name NAME --public-key Z85\n\n"
    + "  FILE              a public key file of `tandem keygen` (NAME.key)\n"
    + "  --role ROLE       read: follow; write: also dispatch; admin: also stats and the\n"
    + "                    operator commands\n"
    + "  --tags TAG,...    for write and admin: the only action tags the key may dispatch\n"
    + "A running leader takes the key at its next reload (SIGHUP, `tandem keys reload`).",
  run: { words in
    var arguments = try CommandLineArguments(words)
    let path = try storePath(&arguments)
    let roleText = try arguments.required("role")
    guard let role = KeyGrant.Role(rawValue: roleText) else {
      throw UsageError("--role '\(roleText)' is not read, write or admin")
    }
    let tags = arguments.option("tags").map { text in
      Set(text.split(separator: ",").map(String.init).filter { !$0.isEmpty })
    }
    let name = arguments.option("name")
    let publicKey = arguments.option("public-key")
    try arguments.finish(allowingPositionals: 1)
    let key: KeyFile
    if let file = arguments.positionals.first {
      guard name == nil, publicKey == nil else {
        throw UsageError("give a public key FILE, or --name and --public-key, not both")
      }
      key = try KeyFile.read(file)
    } else {
      guard let name, let publicKey else {
        throw UsageError(
          "give a public key FILE (from `tandem keygen`), or --name and --public-key")
      }
      guard KeyFile.isValidName(name) else {
        throw UsageError("--name '\(name)' is not 1 to 64 letters, digits, '.', '_' or '-'")
      }
      guard let parsed = CurveKey(z85: publicKey) else {
        throw UsageError("--public-key is not 40 characters of Z85")
      }
      key = KeyFile(name: name, publicKey: parsed)
    }
    let entry = try KeyStore.add(key, role: role, tags: tags, to: path)
    try writeLine("added \(entry.name) (\(role.rawValue)) to \(path)")
  })

let keysRevokeCommand = Command(
  name: "revoke", summary: "Revoke a key: it moves to the store's revoked/ directory",
  usage: "--store DIR NAME\n\n"
    + "A running leader drops the key at its next reload (SIGHUP, `tandem keys reload`): the\n"
    + "key's connections are cut within a second and it can no longer make any request.",
  run: { words in
    var arguments = try CommandLineArguments(words)
    let path = try storePath(&arguments)
    try arguments.finish(allowingPositionals: 1)
    guard let name = arguments.positionals.first else {
      throw UsageError("give the NAME of the key to revoke (see `tandem keys list`)")
    }
    try KeyStore.revoke(name: name, in: path)
    try writeLine("revoked \(name) in \(path): reload the leader's keys for it to take effect")
  })

let keysReloadCommand = Command(
  name: "reload", summary: "Have a running leader read its key store again (admin key)",
  usage: "--leader ENDPOINT --key FILE --leader-key KEY\n\n"
    + "As SIGHUP does: new keys may connect; the connections of keys no longer in the store\n"
    + "are cut within a second. Needs a key with the admin role.\n\n"
    + "Options:\n" + LeaderConnection.help,
  run: { words in
    var arguments = try CommandLineArguments(words)
    let connection = try LeaderConnection(&arguments)
    try arguments.finish()
    let result = try ControlClient(connection).reloadKeys()
    try writeLine(
      "the leader holds \(result.count) keys"
        + (result.removed.isEmpty
          ? "" : "; dropped \(result.removed.joined(separator: ", ")), whose connections it cuts"))
  })
