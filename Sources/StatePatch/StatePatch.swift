// The StatePatch module; see its DocC catalog.
