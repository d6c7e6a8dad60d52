// The RedoProtocol module. Its implementation lands with its issue.
