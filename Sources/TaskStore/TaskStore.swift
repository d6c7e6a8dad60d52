// The TaskStore module. Its implementation lands with its issue.
