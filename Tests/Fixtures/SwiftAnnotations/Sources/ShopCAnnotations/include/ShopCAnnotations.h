/* The C half of the Shop fixture's annotations; it declares nothing, its records are in annotations.c. */
