import BeeHive
import CASanAnnotations

// Prints every record discovery found and every diagnostic, one a line, for SanitizerTests to compare.
let registry = AnnotationRegistry.shared
registry.refresh()
for record in registry.records {
    print("record \(record.text)")
}
for diagnostic in registry.diagnostics {
    print("diagnostic \(diagnostic)")
}
print("declared \(asan_fixture_record_count())")
