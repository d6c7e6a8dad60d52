/// The three-way, per-field MERGE of spec §9 (RES-16).
///
/// B = hydrate(base), Sᵢ = hydrate(parentᵢ). Per field: an explicit resolution decides; else if
/// no parent changed it keep B; else if all changing parents agree take that; else the policy's
/// default strategy over the changing parents. Strategies that do not apply fall back to lww.
struct MergeResolver {
    let replayer: Replayer
    let merge: RedoNode
    let spec: MergeSpec

    private struct Side {
        let head: RedoNode
        let state: RedoTask
    }

    func apply(to task: inout RedoTask) {
        guard let base = replayer.hydrate(spec.base) else { return }
        let sides: [Side] = merge.parents.compactMap { parent in
            guard let index = replayer.position(of: parent), let state = replayer.hydrate(parent) else { return nil }
            return Side(head: replayer.node(at: index), state: state)
        }
        guard sides.count == merge.parents.count else { return }
        for field in RedoField.taskFields {
            let resolution = spec.taskResolutions.last { $0.path == field.key }
            if let value = resolve(
                field, base: base.value(of: field), sides: sides, resolution: resolution,
                read: { $0.state.value(of: field) })
            {
                task.set(field, to: value)
            }
        }
        for todoResolution in spec.todoResolutions {
            guard let target = task.todoIndex(todoResolution.todo) else { continue }
            let baseTodo = base.todoIndex(todoResolution.todo).map { base.todos[$0] }
            for field in RedoField.todoFields {
                let resolution = todoResolution.fields.last { $0.path == field.key }
                let read: (Side) -> FieldValue? = { side in
                    side.state.todoIndex(todoResolution.todo).flatMap { side.state.todos[$0].value(of: field) }
                }
                if let value = resolve(
                    field, base: baseTodo?.value(of: field), sides: sides, resolution: resolution, read: read)
                {
                    task.todos[target].set(field, to: value)
                }
            }
        }
    }

    private func resolve(
        _ field: RedoField, base: FieldValue?, sides: [Side], resolution: FieldResolution?,
        read: (Side) -> FieldValue?
    ) -> FieldValue? {
        let candidates = sides.filter { read($0) != nil }
        if let resolution {
            return apply(resolution.strategy, field: field, candidates: candidates, resolution: resolution, read: read)
        }
        let changing = candidates.filter { read($0) != base }
        guard let first = changing.first else { return base }
        if changing.allSatisfy({ read($0) == read(first) }) { return read(first) }
        return apply(spec.policy.defaultStrategy, field: field, candidates: changing, resolution: nil, read: read)
    }

    private func apply(
        _ strategy: MergeStrategy, field: RedoField, candidates: [Side], resolution: FieldResolution?,
        read: (Side) -> FieldValue?
    ) -> FieldValue? {
        switch strategy {
        case .manual:
            if let value = resolution?.value, let typed = FieldValue.manual(value, for: field) { return typed }
        case .ours:
            if let chosen = resolution?.chosenParent, let side = candidates.first(where: { $0.head.id == chosen }) {
                return read(side)
            }
        case .theirs:
            if let chosen = resolution?.chosenParent,
                let side = lastWriter(candidates.filter { $0.head.id != chosen })
            {
                return read(side)
            }
        case .max, .min:
            // Only a numeric field takes max or min; the others fall back to lww (spec §9).
            guard field.merge == .numeric else { break }
            let numbers = candidates.compactMap { side -> Int64? in
                if case .integer(let number)? = read(side) { return number }
                return nil
            }
            if numbers.count == candidates.count, let pick = strategy == .max ? numbers.max() : numbers.min() {
                return .integer(pick)
            }
        case .union, .lww:
            break
        }
        return lastWriter(candidates).flatMap(read)
    }

    /// The side whose head is greatest by the policy's tiebreakers, then by id (spec §9).
    private func lastWriter(_ sides: [Side]) -> Side? {
        sides.max { lhs, rhs in
            for key in spec.policy.lwwTiebreakers {
                switch key {
                case .lamport where lhs.head.lamport != rhs.head.lamport:
                    return lhs.head.lamport < rhs.head.lamport
                case .wall where lhs.head.wall != rhs.head.wall:
                    return lhs.head.wall < rhs.head.wall
                case .author where lhs.head.author.userID != rhs.head.author.userID:
                    return lhs.head.author.userID < rhs.head.author.userID
                default:
                    continue
                }
            }
            return lhs.head.id < rhs.head.id
        }
    }
}
