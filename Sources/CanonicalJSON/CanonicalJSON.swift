// The CanonicalJSON module. Its implementation lands with its issue.
