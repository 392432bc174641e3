// The Tandem module; see its DocC catalog.
