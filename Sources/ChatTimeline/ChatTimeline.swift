// The ChatTimeline module. Its implementation lands with its issue.
