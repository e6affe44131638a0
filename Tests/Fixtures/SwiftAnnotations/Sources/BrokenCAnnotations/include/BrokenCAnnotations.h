/* The Broken fixture's annotations; it declares nothing, its records are in annotations.c. */
