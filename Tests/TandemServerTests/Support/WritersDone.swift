/// Set once every writer of the cursor test has finished.
actor WritersDone {
    private(set) var value = false
    func set() { value = true }
}
