// The KasiaProtocol module. Its implementation lands with its issue.
