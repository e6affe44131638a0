/* The annotations are all in annotations.c; this header only gives the target a public interface. */
#ifndef ASAN_ANNOTATIONS_H
#define ASAN_ANNOTATIONS_H

/* How many records annotations.c declares, for a quick check from Swift. */
int asan_fixture_record_count(void);

#endif
