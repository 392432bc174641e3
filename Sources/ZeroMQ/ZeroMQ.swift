// The ZeroMQ module; see its DocC catalog.
