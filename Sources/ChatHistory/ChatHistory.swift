// The ChatHistory module. Its implementation lands with its issue.
