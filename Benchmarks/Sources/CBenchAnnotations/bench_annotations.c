#include <beehive.h>
#include "bench_annotations.h"

/* Token pasting builds 1,000 distinct names, Bench.M000 to Bench.M999, without a generated file. */
#define BENCH_10(p) BeeHiveMod(Bench.M##p##0) BeeHiveMod(Bench.M##p##1) BeeHiveMod(Bench.M##p##2) \
    BeeHiveMod(Bench.M##p##3) BeeHiveMod(Bench.M##p##4) BeeHiveMod(Bench.M##p##5) BeeHiveMod(Bench.M##p##6) \
    BeeHiveMod(Bench.M##p##7) BeeHiveMod(Bench.M##p##8) BeeHiveMod(Bench.M##p##9)
#define BENCH_100(p) BENCH_10(p##0) BENCH_10(p##1) BENCH_10(p##2) BENCH_10(p##3) BENCH_10(p##4) \
    BENCH_10(p##5) BENCH_10(p##6) BENCH_10(p##7) BENCH_10(p##8) BENCH_10(p##9)

BENCH_100(0) BENCH_100(1) BENCH_100(2) BENCH_100(3) BENCH_100(4)
BENCH_100(5) BENCH_100(6) BENCH_100(7) BENCH_100(8) BENCH_100(9)

int bench_annotations_count(void) { return 1000; }
