import CMicroHTTPD

/// The C callbacks handed to libmicrohttpd; each recovers its Swift object from the `cls`
/// pointer and does its work in ``ServerCore``.
enum Callbacks {
  static let access: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadDataSize, slot in
    guard let cls, let connection, let uploadDataSize, let slot else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    guard let raw = slot.pointee else {
      let context = RequestContext(
        connection: connection, method: method.map { String(cString: $0) } ?? "GET",
        path: url.map { String(cString: $0) } ?? "/")
      slot.pointee = Unmanaged.passRetained(context).toOpaque()
      core.begin(context)
      return core.first(context)
    }
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
    if uploadDataSize.pointee > 0 {
      if let uploadData {
        core.receive(
          UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee), into: context)
      }
      uploadDataSize.pointee = 0
      return .YES
    }
    return core.proceed(context)
  }

  static let completed: MHD_RequestCompletedCallback = { cls, _, slot, _ in
    guard let cls, let slot, let raw = slot.pointee else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    slot.pointee = nil
    core.complete(context)
  }

  static let read: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -2 }
    let binding = Unmanaged<StreamBinding>.fromOpaque(cls).takeUnretainedValue()
    return binding.stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max))
  }

  static let free: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let binding = Unmanaged<StreamBinding>.fromOpaque(cls).takeRetainedValue()
    binding.stream.terminate()
  }

  static let collect: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let items = cls.assumingMemoryBound(to: [(name: String, value: String?)].self)
    items.pointee.append((String(cString: key), value.map { String(cString: $0) }))
    return .YES
  }
}
