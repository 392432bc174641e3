import CMicroHTTPD

extension ServerCore {
  /// The first call for a request: headers are in, no body yet. Refuses a declared body over
  /// the limit at once.
  func first(_ context: RequestContext) -> MHD_Result {
    if let declared = MHD_lookup_connection_value(
      context.connection, .HEADER_KIND, "Content-Length"),
      let length = Int(String(cString: declared)), length > configuration.maximumBodySize
    {
      context.phase = .answered
      return queue(tooLargeResponse, on: context)
    }
    return .YES
  }

  /// A piece of the body; past the limit the body is dropped and the request answered 413.
  func receive(_ bytes: UnsafeRawBufferPointer, into context: RequestContext) {
    guard !context.tooLarge else { return }
    if context.body.count + bytes.count > configuration.maximumBodySize {
      context.tooLarge = true
      context.body = []
    } else {
      context.body.append(contentsOf: bytes)
    }
  }

  /// A call after the whole body arrived: starts the handler, or sends what it answered.
  func proceed(_ context: RequestContext) -> MHD_Result {
    switch context.phase {
    case .receiving:
      if context.tooLarge {
        context.phase = .answered
        return queue(tooLargeResponse, on: context)
      }
      let request = HTTPRequest(
        method: context.method, path: context.path,
        queryItems: values(.GET_ARGUMENT_KIND, of: context),
        headers: headers(of: context), body: context.body)
      context.body = []
      context.phase = .handling
      guard startHandler(for: request, context: context) else {
        context.phase = .answered
        return queue(.text("server stopping\n", status: 503), on: context)
      }
      return .YES
    case .handling:
      context.phase = .answered
      let response = takeResponse(context) ?? .text("server stopping\n", status: 503)
      return queue(response, on: context)
    case .answered:
      return .NO
    }
  }

  private var tooLargeResponse: HTTPResponse {
    .text("request body larger than \(configuration.maximumBodySize) bytes\n", status: 413)
  }

  private func values(
    _ kind: MHD_ValueKind, of context: RequestContext
  ) -> [(
    name: String, value: String?
  )] {
    var items: [(name: String, value: String?)] = []
    withUnsafeMutablePointer(to: &items) { pointer in
      _ = MHD_get_connection_values(context.connection, kind, Callbacks.collect, pointer)
    }
    return items
  }

  private func headers(of context: RequestContext) -> HTTPHeaders {
    var headers = HTTPHeaders()
    for item in values(.HEADER_KIND, of: context) { headers.add(item.name, item.value ?? "") }
    return headers
  }

  /// Hands `response` to libmicrohttpd; a response it refuses becomes a 500.
  private func queue(_ response: HTTPResponse, on context: RequestContext) -> MHD_Result {
    let status = (100...999).contains(response.status) ? response.status : 500
    var binding: Unmanaged<StreamBinding>?
    let created: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
      created = bytes.withUnsafeBytes { raw in
        MHD_create_response_from_buffer(
          raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
      }
    case .eventStream(let stream):
      let retained = Unmanaged.passRetained(attach(stream, to: context))
      binding = retained
      created = MHD_create_response_from_callback(
        UInt64.max, 4096, Callbacks.read, retained.toOpaque(), Callbacks.free)
    }
    guard let created else {
      if let binding { binding.takeRetainedValue().stream.terminate() }
      return .NO
    }
    defer { MHD_destroy_response(created) }
    for field in response.headers
    where MHD_add_response_header(created, field.name, field.value) == .NO {
      return queue(.text("invalid response header \(field.name)\n", status: 500), on: context)
    }
    return MHD_queue_response(context.connection, UInt32(status), created)
  }
}
