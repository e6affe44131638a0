/// The records of one object, in the order they were read.
///
/// Discovery keeps what it parsed as is: each section's bytes once, and where each record lies in them. An
/// `AnnotationRecord` is made when an element is read (one retain of its section's bytes), so that reading
/// an object's thousand records costs no reference count per record until someone looks at them.
public struct AnnotationRecords: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    private enum Storage: Sendable {
        /// A record's `RecordLayout.section` indexes `sections`.
        case parsed(sections: [SectionBytes], layouts: [RecordLayout])
        case values([AnnotationRecord])
    }

    private let storage: Storage

    init(sections: [SectionBytes], layouts: [RecordLayout]) {
        storage = .parsed(sections: sections, layouts: layouts)
    }

    package init(_ records: [AnnotationRecord]) {
        storage = .values(records)
    }

    public init(arrayLiteral records: AnnotationRecord...) {
        storage = .values(records)
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .parsed(_, let layouts): layouts.count
        case .values(let records): records.count
        }
    }

    public subscript(position: Int) -> AnnotationRecord {
        switch storage {
        case .parsed(let sections, let layouts):
            let layout = layouts[position]
            return AnnotationRecord(bytes: sections[Int(layout.section)], layout: layout)
        case .values(let records):
            return records[position]
        }
    }

    public static func == (lhs: AnnotationRecords, rhs: AnnotationRecords) -> Bool {
        lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for record in self { hasher.combine(record) }
    }
}
