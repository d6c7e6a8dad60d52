// The KaspaCrypto module. Its implementation lands with its issue.
