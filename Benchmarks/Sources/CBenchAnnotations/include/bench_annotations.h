/* 1,000 module annotations in one object, for the discovery benchmark. */
int bench_annotations_count(void);
