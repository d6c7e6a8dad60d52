/// The stream's consumer fell further behind than its queue holds.
struct RelayStreamOverflow: Error {}
